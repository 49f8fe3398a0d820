import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { resolveInputFiles } from '../../src/cli/run';

describe('--input NAME=FILE', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uma-input-flags-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const specs = [{ name: 'in:0', dtype: 'int8' as const, shape: [2] }];

  it("a file whose path holds '=' is read (it was taken as part of the input's name)", () => {
    const file = path.join(dir, 'a=b.bin');
    fs.writeFileSync(file, Buffer.from([7, 250]));
    const [data] = resolveInputFiles([`in:0=${file}`], specs, 1, 0);
    expect(Array.from(data)).toEqual([7, 250]);
  });

  it("an input named with '=' is matched by its whole name", () => {
    const file = path.join(dir, 'x.bin');
    fs.writeFileSync(file, Buffer.from([1, 2]));
    const [data] = resolveInputFiles([`k=v=${file}`], [{ name: 'k=v', dtype: 'int8', shape: [2] }], 1, 0);
    expect(Array.from(data)).toEqual([1, 2]);
  });

  it('no input named so: the error names the part before the first =', () => {
    expect(() => resolveInputFiles(['nope=a=b.bin'], specs, 1, 0)).toThrow("--input nope=a=b.bin: the model has no input 'nope'; inputs are: in:0");
  });
});
