/**
 * TIR <-> JSON (`schemas/tir.schema.json`). Each function lists its vars once (`vars`, by
 * id) and every other place refers to a var by id, so reading rebuilds identity: one id,
 * one Var object, across the whole module. Ids are kept as written so that
 * JSON -> module -> JSON is byte-stable; `reserveVarIds` then keeps new vars from reusing them.
 * Constant data travels as base64.
 */
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { Buffer as NodeBuffer } from 'node:buffer';
import { ConfigError } from '../../errors';
import tirSchema from '../../../schemas/tir.schema.json';
import { reserveVarIds } from './builder';
import {
  Annotations,
  Buffer,
  Expr,
  PrimFunc,
  PrimFuncAttrs,
  ScalarDType,
  Stmt,
  TirModule,
  Var,
} from './nodes';
import { StmtExprVisitor } from './visitor';

export const TIR_JSON_FORMAT = 'uma-ts.tir';
export const TIR_JSON_VERSION = 1;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

// ---------------------------------------------------------------- validation

let validators: { module: ValidateFunction; primFunc: ValidateFunction } | undefined;

function getValidators(): { module: ValidateFunction; primFunc: ValidateFunction } {
  if (validators === undefined) {
    const ajv = new Ajv({ allErrors: false, discriminator: true });
    ajv.addSchema(tirSchema);
    const id = tirSchema.$id;
    validators = {
      module: ajv.getSchema(id) as ValidateFunction,
      primFunc: ajv.compile({ $ref: `${id}#/definitions/primFunc` }),
    };
  }
  return validators;
}

function describe(errors: readonly ErrorObject[]): { path: string; message: string } {
  // The deepest error is the most specific one: a oneOf failure names only the parent.
  const best = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  const extra =
    best.keyword === 'additionalProperties'
      ? ` '${(best.params as { additionalProperty: string }).additionalProperty}'`
      : best.keyword === 'enum' || best.keyword === 'const'
        ? ` ${JSON.stringify(best.params)}`
        : '';
  return { path: best.instancePath === '' ? '/' : best.instancePath, message: `${best.message ?? 'invalid'}${extra}` };
}

function validate(v: ValidateFunction, doc: unknown, what: string): void {
  if (v(doc)) return;
  const { path, message } = describe(v.errors ?? []);
  throw new ConfigError(`invalid ${what} at ${path}: ${message}`, { jsonPath: path });
}

// ---------------------------------------------------------------- writing

function collectVars(f: PrimFunc): Var[] {
  const byId = new Map<number, Var>();
  class Collect extends StmtExprVisitor {
    override visitVar(v: Var): void {
      if (!byId.has(v.id)) byId.set(v.id, v);
    }
  }
  new Collect().visitPrimFunc(f);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

function varDeclToJson(v: Var): JsonObject {
  const out: JsonObject = { id: v.id, name: v.name, dtype: v.dtype };
  if (v.pointee !== undefined) out.pointee = v.pointee;
  return out;
}

function floatToJson(x: number): Json {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return x;
}

function annotationsToJson(a: Annotations): JsonObject {
  return JSON.parse(JSON.stringify(a)) as JsonObject;
}

function bufferToJson(b: Buffer): JsonObject {
  return {
    kind: 'Buffer',
    name: b.name,
    data: b.data.id,
    dtype: b.dtype,
    shape: b.shape.map(exprToJson),
    elemOffset: b.elemOffset,
    scope: b.scope,
  };
}

function exprToJson(e: Expr): JsonObject {
  switch (e.kind) {
    case 'Var':
      return { kind: 'Var', id: e.id };
    case 'IntImm':
      return { kind: 'IntImm', dtype: e.dtype, value: e.value };
    case 'FloatImm':
      return { kind: 'FloatImm', dtype: e.dtype, value: floatToJson(e.value) };
    case 'StringImm':
      return { kind: 'StringImm', value: e.value };
    case 'BinaryOp':
      return { kind: 'BinaryOp', op: e.op, dtype: e.dtype, a: exprToJson(e.a), b: exprToJson(e.b) };
    case 'Not':
      return { kind: 'Not', a: exprToJson(e.a) };
    case 'Select':
      return { kind: 'Select', dtype: e.dtype, cond: exprToJson(e.cond), t: exprToJson(e.t), f: exprToJson(e.f) };
    case 'Cast':
      return { kind: 'Cast', dtype: e.dtype, value: exprToJson(e.value) };
    case 'BufferLoad':
      return { kind: 'BufferLoad', buffer: bufferToJson(e.buffer), indices: e.indices.map(exprToJson) };
    case 'Call':
      return { kind: 'Call', op: e.op, dtype: e.dtype, args: e.args.map(exprToJson) };
  }
}

function stmtToJson(s: Stmt): JsonObject {
  switch (s.kind) {
    case 'Allocate':
      return {
        kind: 'Allocate',
        bufferVar: s.bufferVar.id,
        dtype: s.dtype,
        extents: s.extents.map(exprToJson),
        condition: exprToJson(s.condition),
        storageScope: s.storageScope,
        annotations: annotationsToJson(s.annotations),
        body: stmtToJson(s.body),
      };
    case 'AllocateConst':
      return {
        kind: 'AllocateConst',
        bufferVar: s.bufferVar.id,
        dtype: s.dtype,
        extents: s.extents.map(exprToJson),
        data: NodeBuffer.from(s.data.buffer, s.data.byteOffset, s.data.byteLength).toString('base64'),
        annotations: annotationsToJson(s.annotations),
        body: stmtToJson(s.body),
      };
    case 'DeclBuffer':
      return { kind: 'DeclBuffer', buffer: bufferToJson(s.buffer), body: stmtToJson(s.body) };
    case 'For':
      return {
        kind: 'For',
        loopVar: s.loopVar.id,
        min: exprToJson(s.min),
        extent: exprToJson(s.extent),
        forKind: s.forKind,
        annotations: annotationsToJson(s.annotations),
        body: stmtToJson(s.body),
      };
    case 'SeqStmt':
      return { kind: 'SeqStmt', seq: s.seq.map(stmtToJson) };
    case 'LetStmt':
      return { kind: 'LetStmt', var: s.var.id, value: exprToJson(s.value), body: stmtToJson(s.body) };
    case 'IfThenElse': {
      const out: JsonObject = { kind: 'IfThenElse', condition: exprToJson(s.condition), then: stmtToJson(s.then) };
      if (s.else !== undefined) out.else = stmtToJson(s.else);
      return out;
    }
    case 'BufferStore':
      return {
        kind: 'BufferStore',
        buffer: bufferToJson(s.buffer),
        value: exprToJson(s.value),
        indices: s.indices.map(exprToJson),
      };
    case 'Evaluate':
      return { kind: 'Evaluate', value: exprToJson(s.value) };
  }
}

export function primFuncToJson(f: PrimFunc): object {
  const attrs: JsonObject = {};
  for (const [k, v] of Object.entries(f.attrs)) if (v !== undefined) attrs[k] = v as Json;
  return {
    kind: 'PrimFunc',
    vars: collectVars(f).map(varDeclToJson),
    params: f.params.map((p) => p.id),
    bufferMap: f.bufferMap.map(([param, buffer]) => ({ param: param.id, buffer: bufferToJson(buffer) })),
    attrs,
    body: stmtToJson(f.body),
  };
}

export function tirModuleToJson(m: TirModule): object {
  return {
    format: TIR_JSON_FORMAT,
    version: TIR_JSON_VERSION,
    functions: [...m.functions].map(([name, func]) => ({ name, func: primFuncToJson(func) })),
  };
}

// ---------------------------------------------------------------- reading

/* The readers below run on schema-valid documents only, so they trust shapes and kinds. */
type Doc = any;

/** Var identity for one document: the same id always yields the same object. */
class VarTable {
  private readonly vars = new Map<number, Var>();
  private maxId = 0;

  declare(d: Doc, path: string): void {
    const v: Var =
      d.pointee === undefined
        ? { kind: 'Var', name: d.name, dtype: d.dtype, id: d.id }
        : { kind: 'Var', name: d.name, dtype: d.dtype, id: d.id, pointee: d.pointee };
    const prev = this.vars.get(v.id);
    if (prev === undefined) {
      this.vars.set(v.id, v);
      this.maxId = Math.max(this.maxId, v.id);
    } else if (prev.name !== v.name || prev.dtype !== v.dtype || prev.pointee !== v.pointee) {
      throw new ConfigError(`var id ${v.id} is declared twice with different name or type at ${path}`, {
        jsonPath: path,
      });
    }
  }

  get(id: number, path: string): Var {
    const v = this.vars.get(id);
    if (v === undefined) throw new ConfigError(`undeclared var id ${id} at ${path}`, { jsonPath: path });
    return v;
  }

  reserve(): void {
    reserveVarIds(this.maxId);
  }
}

class Reader {
  constructor(private readonly vars: VarTable) {}

  buffer(d: Doc, path: string): Buffer {
    return {
      kind: 'Buffer',
      name: d.name,
      data: this.vars.get(d.data, `${path}/data`),
      dtype: d.dtype as ScalarDType,
      shape: this.exprs(d.shape, `${path}/shape`),
      elemOffset: d.elemOffset,
      scope: d.scope,
    };
  }

  exprs(ds: Doc[], path: string): Expr[] {
    return ds.map((d, i) => this.expr(d, `${path}/${i}`));
  }

  expr(d: Doc, path: string): Expr {
    switch (d.kind as Expr['kind']) {
      case 'Var':
        return this.vars.get(d.id, `${path}/id`);
      case 'IntImm':
        return { kind: 'IntImm', dtype: d.dtype, value: d.value };
      case 'FloatImm': {
        const special: Record<string, number> = { nan: NaN, inf: Infinity, '-inf': -Infinity };
        const value = typeof d.value === 'string' ? special[d.value] : d.value;
        return { kind: 'FloatImm', dtype: 'float32', value };
      }
      case 'StringImm':
        return { kind: 'StringImm', value: d.value };
      case 'BinaryOp':
        return {
          kind: 'BinaryOp',
          op: d.op,
          dtype: d.dtype,
          a: this.expr(d.a, `${path}/a`),
          b: this.expr(d.b, `${path}/b`),
        };
      case 'Not':
        return { kind: 'Not', a: this.expr(d.a, `${path}/a`) };
      case 'Select':
        return {
          kind: 'Select',
          dtype: d.dtype,
          cond: this.expr(d.cond, `${path}/cond`),
          t: this.expr(d.t, `${path}/t`),
          f: this.expr(d.f, `${path}/f`),
        };
      case 'Cast':
        return { kind: 'Cast', dtype: d.dtype, value: this.expr(d.value, `${path}/value`) };
      case 'BufferLoad':
        return {
          kind: 'BufferLoad',
          buffer: this.buffer(d.buffer, `${path}/buffer`),
          indices: this.exprs(d.indices, `${path}/indices`),
        };
      case 'Call':
        return { kind: 'Call', op: d.op, dtype: d.dtype, args: this.exprs(d.args, `${path}/args`) };
    }
  }

  stmt(d: Doc, path: string): Stmt {
    switch (d.kind as Stmt['kind']) {
      case 'Allocate':
        return {
          kind: 'Allocate',
          bufferVar: this.vars.get(d.bufferVar, `${path}/bufferVar`),
          dtype: d.dtype,
          extents: this.exprs(d.extents, `${path}/extents`),
          condition: this.expr(d.condition, `${path}/condition`),
          storageScope: d.storageScope,
          annotations: d.annotations as Annotations,
          body: this.stmt(d.body, `${path}/body`),
        };
      case 'AllocateConst':
        return {
          kind: 'AllocateConst',
          bufferVar: this.vars.get(d.bufferVar, `${path}/bufferVar`),
          dtype: d.dtype,
          extents: this.exprs(d.extents, `${path}/extents`),
          data: new Uint8Array(NodeBuffer.from(d.data as string, 'base64')),
          annotations: d.annotations as Annotations,
          body: this.stmt(d.body, `${path}/body`),
        };
      case 'DeclBuffer':
        return {
          kind: 'DeclBuffer',
          buffer: this.buffer(d.buffer, `${path}/buffer`),
          body: this.stmt(d.body, `${path}/body`),
        };
      case 'For':
        return {
          kind: 'For',
          loopVar: this.vars.get(d.loopVar, `${path}/loopVar`),
          min: this.expr(d.min, `${path}/min`),
          extent: this.expr(d.extent, `${path}/extent`),
          forKind: d.forKind,
          annotations: d.annotations as Annotations,
          body: this.stmt(d.body, `${path}/body`),
        };
      case 'SeqStmt':
        return { kind: 'SeqStmt', seq: (d.seq as Doc[]).map((s, i) => this.stmt(s, `${path}/seq/${i}`)) };
      case 'LetStmt':
        return {
          kind: 'LetStmt',
          var: this.vars.get(d.var, `${path}/var`),
          value: this.expr(d.value, `${path}/value`),
          body: this.stmt(d.body, `${path}/body`),
        };
      case 'IfThenElse': {
        const condition = this.expr(d.condition, `${path}/condition`);
        const then = this.stmt(d.then, `${path}/then`);
        return d.else === undefined
          ? { kind: 'IfThenElse', condition, then }
          : { kind: 'IfThenElse', condition, then, else: this.stmt(d.else, `${path}/else`) };
      }
      case 'BufferStore':
        return {
          kind: 'BufferStore',
          buffer: this.buffer(d.buffer, `${path}/buffer`),
          value: this.expr(d.value, `${path}/value`),
          indices: this.exprs(d.indices, `${path}/indices`),
        };
      case 'Evaluate':
        return { kind: 'Evaluate', value: this.expr(d.value, `${path}/value`) };
    }
  }

  primFunc(d: Doc, path: string): PrimFunc {
    (d.vars as Doc[]).forEach((v, i) => this.vars.declare(v, `${path}/vars/${i}`));
    return {
      kind: 'PrimFunc',
      params: (d.params as number[]).map((id, i) => this.vars.get(id, `${path}/params/${i}`)),
      bufferMap: (d.bufferMap as Doc[]).map(
        (e, i) =>
          [this.vars.get(e.param, `${path}/bufferMap/${i}/param`), this.buffer(e.buffer, `${path}/bufferMap/${i}/buffer`)] as const,
      ),
      body: this.stmt(d.body, `${path}/body`),
      attrs: d.attrs as PrimFuncAttrs,
    };
  }
}

/** Reads one PrimFunc written by `primFuncToJson`; throws ConfigError naming the JSON path. */
export function primFuncFromJson(obj: unknown): PrimFunc {
  validate(getValidators().primFunc, obj, 'TIR PrimFunc JSON');
  const vars = new VarTable();
  const f = new Reader(vars).primFunc(obj, '');
  vars.reserve();
  return f;
}

/** Reads a module written by `tirModuleToJson`; throws ConfigError naming the JSON path. */
export function tirModuleFromJson(obj: unknown): TirModule {
  validate(getValidators().module, obj, 'TIR module JSON');
  const vars = new VarTable();
  const reader = new Reader(vars);
  const functions = new Map<string, PrimFunc>();
  ((obj as Doc).functions as Doc[]).forEach((entry, i) => {
    if (functions.has(entry.name)) {
      throw new ConfigError(`duplicate function '${entry.name}' at /functions/${i}/name`, {
        jsonPath: `/functions/${i}/name`,
        func: entry.name,
      });
    }
    functions.set(entry.name, reader.primFunc(entry.func, `/functions/${i}/func`));
  });
  vars.reserve();
  return { functions };
}
