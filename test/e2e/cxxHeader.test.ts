/**
 * The generated interface is usable from C++: `tvmgen_default.h` compiles in a C++
 * translation unit under -Wall -Wextra -Werror (extern "C", no C-only constructs, the
 * constant-pool data macro initialises a C++ array), and a C++ `main` linked with the C
 * objects runs the accel seed network byte-exact with the interpreter.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AccelBackend, buildSeedNetwork } from '../../backends/accel';
import { BackendRegistry } from '../../src/backend/registry';
import { writeModelLibraryFormat } from '../../src/codegen/mlf';
import { buildLayout } from '../../src/codegen/layout';
import { compileModel, CompileResult } from '../../src/driver/compile';
import { DTYPE_BYTES } from '../../src/ir/graph/types';
import { interpret } from '../../src/interpreter';
import { parsePoolsJson } from '../../src/usmp/pools';
import { ACCEL_POOL_REGISTRATION, cIdent, fixedInput, runApplication, STRICT_C } from './harness';

const CXX_STRICT = ['-x', 'c++', '-Wall', '-Wextra', '-Werror'];
const PREFIX = 'tvmgen_default';
const MACRO = PREFIX.toUpperCase();

/** A C++ application: pools sized by the header's macros, registered with the simulator. */
function cxxMain(result: CompileResult, header: string, inputs: readonly Uint8Array[]): string {
  const inFields = cIdent(header, `${PREFIX}_inputs`);
  const outFields = cIdent(header, `${PREFIX}_outputs`);
  const wsFields = cIdent(header, `${PREFIX}_workspace_pools`);
  const constFields = cIdent(header, `${PREFIX}_constant_pools`);
  const pools = result.usmp.pools.filter((p) => !p.pool.internal);
  const sizeMacro = (name: string, kind: string) => `${MACRO}_${name.toUpperCase()}_${kind === 'constant' ? 'CONSTANT' : 'WORKSPACE'}_POOL_SIZE`;
  const lines = ['#include <cstdint>', '#include <cstdio>', '#include <cstring>', `#include "${PREFIX}.h"`, ACCEL_POOL_REGISTRATION.includes, ''];
  inputs.forEach((bytes, i) => lines.push(`static std::uint8_t input_${i}[] = {${Array.from(bytes).join(', ')}};`));
  result.outputs.forEach((o, i) => {
    const n = o.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[o.dtype];
    lines.push(`alignas(16) static std::uint8_t output_${i}[${n}];`);
  });
  for (const p of pools) {
    const size = sizeMacro(p.pool.name, p.pool.kind);
    lines.push(`alignas(64) static std::uint8_t pool_${p.pool.name}[${size} > 0 ? ${size} : 1];`);
    if (p.pool.kind === 'constant') {
      lines.push(`static const std::uint8_t pool_${p.pool.name}_init[] = ${MACRO}_${p.pool.name.toUpperCase()}_CONSTANT_POOL_DATA;`);
    }
  }
  lines.push('', 'int main() {');
  for (const p of pools) {
    if (p.pool.kind === 'constant') lines.push(`  std::memcpy(pool_${p.pool.name}, pool_${p.pool.name}_init, sizeof(pool_${p.pool.name}_init));`);
    lines.push('  ' + ACCEL_POOL_REGISTRATION.statement(p.pool, `pool_${p.pool.name}`, Math.max(1, p.sizeBytes)));
  }
  lines.push(`  ${PREFIX}_inputs in{};`, `  ${PREFIX}_outputs out{};`);
  inFields.forEach((f, i) => lines.push(`  in.${f} = reinterpret_cast<decltype(in.${f})>(input_${i});`));
  outFields.forEach((f, i) => lines.push(`  out.${f} = reinterpret_cast<decltype(out.${f})>(output_${i});`));
  lines.push(`  ${PREFIX}_workspace_pools ws{};`, `  ${PREFIX}_constant_pools cp{};`);
  for (const f of wsFields) lines.push(`  ws.${f} = pool_${f};`);
  for (const f of constFields) lines.push(`  cp.${f} = pool_${f};`);
  lines.push(`  if (${PREFIX}_run(&in, &out, &ws, &cp) != 0) { std::fprintf(stderr, "run failed\\n"); return 2; }`);
  result.outputs.forEach((_, i) => {
    lines.push(`  for (std::size_t k = 0; k < sizeof(output_${i}); ++k) std::printf("%u ", static_cast<unsigned>(output_${i}[k]));`);
    lines.push('  std::printf("\\n");');
  });
  lines.push('  return 0;', '}', '');
  return lines.join('\n');
}

describe('generated interface from C++', () => {
  const registry = new BackendRegistry();
  registry.register(AccelBackend);
  const graph = buildSeedNetwork();
  const poolsFile = 'backends/accel/pools.json';
  // External pools (workspace and constant structs in the header, constant data macro) and
  // I/O in the workspace (map_inputs/map_outputs): every optional part of the interface.
  const pools = parsePoolsJson(fs.readFileSync(poolsFile, 'utf8'), poolsFile).map((p) => ({ ...p, internal: false }));
  const result = compileModel(graph, { backend: 'accel', registry, pools, ioInWorkspace: true });
  let dir: string;
  let include: string;
  let runtimeInclude: string;
  let header: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-cxx-'));
    writeModelLibraryFormat(path.join(dir, 'mlf'), result.artifacts);
    include = path.join(dir, 'mlf', 'codegen', 'host', 'include');
    header = fs.readFileSync(path.join(include, `${PREFIX}.h`), 'utf8');
    runtimeInclude = path.join(dir, 'mlf', 'runtime', 'include');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the header uses every optional part of the interface', () => {
    for (const part of [`struct ${PREFIX}_workspace_pools`, `struct ${PREFIX}_constant_pools`, `${PREFIX}_map_inputs`, '_CONSTANT_POOL_DATA']) {
      expect([part, header.includes(part)]).toEqual([part, true]);
    }
  });

  it.each(['c++11', 'c++17'])('compiles in a C++ translation unit (-std=%s)', (std) => {
    const tu = path.join(dir, `header_${std}.cpp`);
    fs.writeFileSync(
      tu,
      [
        `#include "${PREFIX}.h"`,
        `static_assert(sizeof(${PREFIX}_inputs) > 0, "inputs struct");`,
        // The constant data macro must initialise a C++ array without narrowing errors.
        `extern const unsigned char probe_constants[];`,
        `const unsigned char probe_constants[] = ${MACRO}_WEI_MEM_CONSTANT_POOL_DATA;`,
        `int probe_run(${PREFIX}_inputs* i, ${PREFIX}_outputs* o, ${PREFIX}_workspace_pools* w, ${PREFIX}_constant_pools* c);`,
        `int probe_run(${PREFIX}_inputs* i, ${PREFIX}_outputs* o, ${PREFIX}_workspace_pools* w, ${PREFIX}_constant_pools* c) { return ${PREFIX}_run(i, o, w, c); }`,
        '',
      ].join('\n'),
    );
    execFileSync('g++', [...CXX_STRICT, `-std=${std}`, `-I${include}`, `-I${runtimeInclude}`, '-c', tu, '-o', path.join(dir, `header_${std}.o`)], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The C symbol is referenced unmangled (extern "C").
    const symbols = execFileSync('nm', [path.join(dir, `header_${std}.o`)], { encoding: 'utf8' });
    expect(symbols).toMatch(new RegExp(`\\bU ${PREFIX}_run$`, 'm'));
  });

  it('a C++ main linked with the C objects runs byte-exact', () => {
    const inputs = graph.functions.get('main')!.params.map((p, i) => {
      const t = graph.functions.get('main')!.nodes.find((n) => n.name === p)!.type;
      return fixedInput(t.shape.reduce((a, b) => a * b, 1) * DTYPE_BYTES[t.dtype], 41 + i);
    });
    const expected = interpret(graph, inputs);
    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, 'main.cpp'), cxxMain(result, header, inputs));
    const objects: string[] = [];
    const layout = buildLayout(path.join(dir, 'mlf'));
    for (const c of [...layout.modelSources, ...layout.runtimeSources]) {
      const o = path.join(app, path.basename(c).replace(/\.c$/, '.o'));
      execFileSync('gcc', [...STRICT_C, '-O2', `-I${include}`, `-I${runtimeInclude}`, '-c', c, '-o', o], { stdio: ['ignore', 'pipe', 'pipe'] });
      objects.push(o);
    }
    execFileSync('g++', [...CXX_STRICT, '-std=c++11', '-O2', `-I${include}`, `-I${runtimeInclude}`, '-c', 'main.cpp', '-o', 'main.o'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    execFileSync('g++', ['main.o', ...objects, '-o', 'prog', '-lm'], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
    const run = runApplication(app, expected.map((e) => e.length));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.outputs.map((o) => Array.from(o))).toEqual(expected.map((e) => Array.from(e)));
  });
});
