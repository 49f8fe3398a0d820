import { ConfigError } from '../../src/errors';
import { bufferStore, floatImm, ifThenElse, lt, makeBuffer, makeVar, primFunc } from '../../src/ir/tir/builder';
import { structuralEqual } from '../../src/ir/tir/equal';
import { primFuncFromJson, primFuncToJson, tirModuleFromJson, tirModuleToJson } from '../../src/ir/tir/json';
import { AllocateConst, Allocate, MAIN_PRIM_FUNC, PrimFunc, Stmt } from '../../src/ir/tir/nodes';
import { printModule, printPrimFunc } from '../../src/ir/tir/printer';
import { fusedAdd, smallModule } from './fixtures';

function firstOfKind<K extends Stmt['kind']>(s: Stmt, kind: K): Extract<Stmt, { kind: K }> {
  let cur: Stmt | undefined = s;
  while (cur !== undefined && cur.kind !== kind) cur = 'body' in cur ? cur.body : undefined;
  if (cur === undefined) throw new Error(`no ${kind}`);
  return cur as Extract<Stmt, { kind: K }>;
}

describe('TIR JSON', () => {
  it('round-trips a module: structurally equal, same text, byte-stable JSON', () => {
    const m = smallModule();
    const json = tirModuleToJson(m);
    const text = JSON.stringify(json);
    const back = tirModuleFromJson(JSON.parse(text));
    expect(structuralEqual(m, back)).toBe(true);
    expect(printModule(back)).toBe(printModule(m));
    expect(JSON.stringify(tirModuleToJson(back))).toBe(text);
    expect([...back.functions.keys()]).toEqual([...m.functions.keys()]);
  });

  it('rebuilds var identity and keeps ids', () => {
    const f = fusedAdd();
    const back = primFuncFromJson(JSON.parse(JSON.stringify(primFuncToJson(f))));
    expect(back.params.map((p) => p.id)).toEqual(f.params.map((p) => p.id));
    const loop = firstOfKind(back.body, 'For');
    const store = firstOfKind(loop.body, 'BufferStore');
    // The loop var and the store index are one object, and the buffer's data var is the
    // same object the bufferMap holds.
    expect(store.indices[0]).toBe(loop.loopVar);
    expect(store.buffer.data).toBe(back.bufferMap[1][1].data);
  });

  it('keeps fresh vars from colliding with parsed ids', () => {
    const shift = 100000;
    const varKeys = new Set(['id', 'param', 'data', 'loopVar', 'var', 'bufferVar']);
    const renumber = (x: unknown, key?: string): unknown => {
      if (typeof x === 'number') return key !== undefined && varKeys.has(key) ? x + shift : x;
      if (Array.isArray(x)) return x.map((y) => renumber(y, key === 'params' ? 'id' : undefined));
      if (x !== null && typeof x === 'object') {
        return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, renumber(v, k)]));
      }
      return x;
    };
    const back = primFuncFromJson(renumber(JSON.parse(JSON.stringify(primFuncToJson(fusedAdd())))));
    const maxId = Math.max(...back.params.map((p) => p.id));
    expect(maxId).toBeGreaterThan(shift);
    expect(makeVar('fresh').id).toBeGreaterThan(maxId);
  });

  it('carries constant data as base64 and annotations unchanged', () => {
    const m = smallModule();
    const json = tirModuleToJson(m) as { functions: { name: string; func: { body: { data: string } } }[] };
    const main = json.functions.find((f) => f.name === MAIN_PRIM_FUNC);
    expect(main?.func.body.data).toBe(Buffer.from([5, 6, 7, 8]).toString('base64'));
    const back = tirModuleFromJson(json).functions.get(MAIN_PRIM_FUNC) as PrimFunc;
    const c = back.body as AllocateConst;
    expect([...c.data]).toEqual([5, 6, 7, 8]);
    const alloc = c.body as Allocate;
    expect(alloc.annotations).toEqual({ candidate_memory_pools: ['act_mem'] });
  });

  it('rejects a bad document with ConfigError naming the JSON path', () => {
    const json = JSON.parse(JSON.stringify(tirModuleToJson(smallModule())));
    const fused = json.functions.findIndex((f: { name: string }) => f.name === 'tvmgen_default_fused_add');
    json.functions[fused].func.body.body.value.dtype = 'int7';
    let err: unknown;
    try {
      tirModuleFromJson(json);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const path = `/functions/${fused}/func/body/body/value/dtype`;
    expect((err as ConfigError).context.jsonPath).toBe(path);
    expect((err as Error).message).toContain(path);
  });

  it('rejects unknown node kinds and undeclared var ids', () => {
    const json = JSON.parse(JSON.stringify(primFuncToJson(fusedAdd())));
    json.body.body.kind = 'Goto';
    expect(() => primFuncFromJson(json)).toThrow(ConfigError);

    const json2 = JSON.parse(JSON.stringify(primFuncToJson(fusedAdd())));
    json2.body.loopVar = 987654321;
    expect(() => primFuncFromJson(json2)).toThrow(/undeclared var id 987654321 at \/body\/loopVar/);
  });

  it('round-trips float specials and else branches', () => {
    const x = makeVar('x', 'float32');
    const out = makeBuffer('out', 'float32', [2]);
    const f = primFunc({
      params: [x, out.data],
      body: ifThenElse(
        lt(x, floatImm(Infinity)),
        bufferStore(out, floatImm(NaN), [0]),
        bufferStore(out, floatImm(-Infinity), [1]),
      ),
    });
    const back = primFuncFromJson(JSON.parse(JSON.stringify(primFuncToJson(f))));
    expect(structuralEqual(f, back)).toBe(true);
    expect(printPrimFunc(back)).toBe(printPrimFunc(f));
    expect(printPrimFunc(back)).toContain('out_1[0] = T.float32("nan")');
    const ite = back.body;
    expect(ite.kind === 'IfThenElse' && ite.else?.kind).toBe('BufferStore');
  });
});
