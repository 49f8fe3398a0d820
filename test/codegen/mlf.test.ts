/**
 * The MLF directory: layout, metadata valid against its schema, a program builds from the
 * directory as written, and failures leave no partial output behind.
 */
import Ajv from 'ajv';
import * as fs from 'fs';
import * as path from 'path';
import metadataSchema from '../../schemas/metadata.schema.json';
import { generateC } from '../../src/codegen/c/generate';
import { readModelLibraryFormat, writeModelLibraryFormat } from '../../src/codegen/mlf';
import { CArtifacts } from '../../src/codegen/types';
import { CodegenError } from '../../src/errors';
import { tirModule } from '../../src/ir/tir/builder';
import { aotModule, N } from './modules';
import { buildAndRun, makeTempDir, parseInts, removeDir } from './cc';

function artifacts(): CArtifacts {
  return generateC({
    module: tirModule(aotModule().functions),
    inputs: [{ name: 'x', dtype: 'int8', shape: [1, N] }],
    outputs: [{ name: 'y', dtype: 'int8', shape: [1, N] }],
  });
}

function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const p = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk('');
  return out.sort();
}

describe('writeModelLibraryFormat', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = makeTempDir('mlf');
  });
  afterEach(() => removeDir(tmp));

  it('writes the MLF layout with schema-valid metadata, and the result builds', () => {
    const out = path.join(tmp, 'model');
    writeModelLibraryFormat(out, artifacts());
    expect(listTree(out)).toEqual([
      '.uma-ts-output',
      'codegen/host/include/tvmgen_default.h',
      'codegen/host/src/default_lib0.c',
      'codegen/host/src/default_lib1.c',
      'metadata.json',
      'runtime/include/uma_runtime.h',
    ]);
    const meta = JSON.parse(fs.readFileSync(path.join(out, 'metadata.json'), 'utf8'));
    const validate = new Ajv({ strict: false }).compile(metadataSchema);
    expect(validate(meta)).toBe(true);
    expect(meta.modelName).toBe('default');
    expect(meta.outputs[0]).toMatchObject({ name: 'y', dtype: 'int8', shape: [1, N], sizeBytes: N });
    expect(meta.files).toEqual({
      includeDirs: ['codegen/host/include', 'runtime/include'],
      modelSources: ['codegen/host/src/default_lib0.c', 'codegen/host/src/default_lib1.c'],
      runtimeSources: [],
    });
    // No temp or backup siblings remain.
    expect(fs.readdirSync(tmp)).toEqual(['model']);

    // Built as metadata.json says: the model's sources with both include dirs.
    const host = path.join(out, 'codegen', 'host');
    fs.cpSync(path.join(out, 'runtime', 'include'), path.join(host, 'include'), { recursive: true });
    const main = `#include <stdio.h>
#include "tvmgen_default.h"
int main(void) {
  int8_t in[${N}] = {0, 1, 2, 3, 4, 5, 6, 7};
  int8_t res[${N}];
  struct tvmgen_default_inputs inputs = { in };
  struct tvmgen_default_outputs outputs = { res };
  int i;
  if (tvmgen_default_run(&inputs, &outputs) != 0) return 3;
  for (i = 0; i < ${N}; ++i) printf("%d\\n", res[i]);
  return 0;
}
`;
    expect(parseInts(buildAndRun(host, { 'main.c': main }))).toEqual(aotModule().expected([0, 1, 2, 3, 4, 5, 6, 7]));
  });

  it('replaces a previous output in place', () => {
    const out = path.join(tmp, 'model');
    writeModelLibraryFormat(out, artifacts(), [{ name: 'stale.txt', content: 'old' }]);
    writeModelLibraryFormat(out, artifacts());
    expect(fs.existsSync(path.join(out, 'stale.txt'))).toBe(false);
    expect(fs.existsSync(path.join(out, 'metadata.json'))).toBe(true);
    expect(fs.readdirSync(tmp)).toEqual(['model']);
  });

  it('leaves nothing behind when writing fails midway', () => {
    const out = path.join(tmp, 'model');
    const good = artifacts();
    const bad: CArtifacts = { ...good, files: [...good.files, { path: '../escape.c', content: '' }] };
    expect(() => writeModelLibraryFormat(out, bad)).toThrow(CodegenError);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('keeps a previous output intact when the new one fails', () => {
    const out = path.join(tmp, 'model');
    writeModelLibraryFormat(out, artifacts());
    const before = fs.readFileSync(path.join(out, 'codegen/host/src/default_lib1.c'), 'utf8');
    const good = artifacts();
    const dup: CArtifacts = { ...good, files: [...good.files, good.files[0]] };
    expect(() => writeModelLibraryFormat(out, dup)).toThrow(/written twice/);
    expect(fs.readFileSync(path.join(out, 'codegen/host/src/default_lib1.c'), 'utf8')).toBe(before);
    expect(fs.readdirSync(tmp)).toEqual(['model']);
  });

  it('refuses invalid metadata and foreign non-empty directories', () => {
    const good = artifacts();
    const badMeta = { ...good, metadata: { ...good.metadata, modelName: '9bad' } } as CArtifacts;
    expect(() => writeModelLibraryFormat(path.join(tmp, 'a'), badMeta)).toThrow(/metadata.json is invalid: \/modelName/);
    const foreign = path.join(tmp, 'docs');
    fs.mkdirSync(foreign);
    fs.writeFileSync(path.join(foreign, 'notes.txt'), 'keep me');
    expect(() => writeModelLibraryFormat(foreign, good)).toThrow(/refusing to replace/);
    expect(fs.readFileSync(path.join(foreign, 'notes.txt'), 'utf8')).toBe('keep me');
  });
});

describe('readModelLibraryFormat', () => {
  it('refuses a directory without a valid metadata.json, naming the file', () => {
    const dir = makeTempDir('mlf-read');
    try {
      expect(() => readModelLibraryFormat(dir)).toThrow(/cannot read .*metadata\.json/);
      fs.writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify({ schemaVersion: 1 }));
      expect(() => readModelLibraryFormat(dir)).toThrow(/metadata\.json is invalid: \/ must have required property/);
    } finally {
      removeDir(dir);
    }
  });
});
