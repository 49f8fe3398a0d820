import { ConfigError } from '../../src/errors';
import { parseBufferSet } from '../../src/usmp/bufferSet';
import { planBufferSet } from '../../src/cli/plan';

/** Five buffers whose lifespans chain (upper exclusive): they fit in 12 bytes, no less. */
const CHAIN = 'id,lower,upper,size\nb1,0,3,4\nb2,3,9,4\nb3,0,9,4\nb4,9,21,4\nb5,0,21,4\n';

function ranges(text: string): [string, number, number, number, number][] {
  return parseBufferSet(text, 'set.csv').buffers.map((b) => [b.name, b.liveRange![0], b.liveRange![1], b.sizeBytes, b.alignment]);
}

function errorOf(text: string): string {
  try {
    parseBufferSet(text, 'set.csv');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as Error).message;
  }
  throw new Error('no error');
}

describe("MiniMalloc's CSV buffer sets", () => {
  it('reads upper as exclusive and end as inclusive, whatever the column order', () => {
    expect(ranges(CHAIN)).toEqual([
      ['b1', 0, 2, 4, 1],
      ['b2', 3, 8, 4, 1],
      ['b3', 0, 8, 4, 1],
      ['b4', 9, 20, 4, 1],
      ['b5', 0, 20, 4, 1],
    ]);
    expect(ranges('size,buffer,end,start\n4,b1,2,0\n4,b2,8,3\n4,b3,8,0\n4,b4,20,9\n4,b5,20,0\n')).toEqual(ranges(CHAIN));
    expect(ranges('buffer_id,begin,upper,size,alignment,offset\nx,5,6,10,8,0\n')).toEqual([['x', 5, 5, 10, 8]]);
  });

  it('plans it: the example packs into its 12 bytes, proven optimal', () => {
    const set = parseBufferSet(CHAIN, 'set.csv');
    expect(set.format).toBe('csv');
    const report = planBufferSet(set, 'auto');
    expect(report.pools).toEqual([{ name: 'global_workspace', size: 12 }]);
    expect(report.provenOptimal).toBe(true);
  });

  it('says what is wrong and on which line', () => {
    expect(errorOf('id,lower,upper,sizes\nb1,0,3,4\n')).toMatch(/^set\.csv:1: unknown column 'sizes'/);
    expect(errorOf('id,lower,size\nb1,0,4\n')).toMatch(/^set\.csv:1: no 'upper' or 'end' column/);
    expect(errorOf('id,start,lower,upper,size\nb1,0,0,3,4\n')).toMatch(/^set\.csv:1: column 'lower' repeats/);
    expect(errorOf('id,lower,upper,size\nb1,0,3\n')).toMatch(/^set\.csv:2: 3 fields, the header has 4/);
    expect(errorOf('id,lower,upper,size\nb1,0,3,4\nb1,1,2,4\n')).toMatch(/^set\.csv:3: duplicate buffer id 'b1'/);
    expect(errorOf('id,lower,upper,size\nb1,3,3,4\n')).toMatch(/^set\.csv:2: buffer 'b1' has an empty lifespan \[3, 3\)/);
    expect(errorOf('id,lower,upper,size\nb1,0,3,-4\n')).toMatch(/^set\.csv:2: size '-4' is not a non-negative integer/);
    expect(errorOf('id,lower,upper,size,alignment\nb1,0,3,4,3\n')).toMatch(/^set\.csv:2: buffer 'b1' alignment 3 is not a power of two/);
    expect(errorOf('id,lower,upper,size,gaps\nb1,0,9,4,3-5\n')).toMatch(/^set\.csv:2: buffer 'b1' has gaps/);
  });

  // fz30: a header with a comma in it was read as the interval format unless every name was an
  // identifier, so a trailing comma or a spreadsheet's index column got "expected 'size
  // first_use last_use'"; and names of Object.prototype's members were columns nobody checked.
  it('reads a damaged header as the CSV it was meant to be, and says which column is wrong', () => {
    expect(errorOf('id,lower,upper,size,\nb1,0,3,4,\n')).toMatch(/^set\.csv:1: column 5 of the header has no name/);
    expect(errorOf(',id,lower,upper,size\n0,b1,0,3,4\n')).toMatch(/^set\.csv:1: column 1 of the header has no name/);
    expect(errorOf('"id","lower","upper","size"\n"b1",0,3,4\n')).toMatch(/^set\.csv:1: unknown column '"id"'/);
    expect(errorOf('buffer id,lower,upper,size\nb1,0,3,4\n')).toMatch(/^set\.csv:1: unknown column 'buffer id'/);
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(errorOf(`id,lower,upper,size,${name}\nb1,0,3,4,1\n`)).toMatch(new RegExp(`^set\\.csv:1: unknown column '${name}'`));
    }
  });

  it('still reads interval lines with commas in comments, or without a letter, as intervals', () => {
    expect(parseBufferSet('16 0 1 # conv, relu\n8 1 2\n', 'set.txt').format).toBe('intervals');
    expect(errorOf('16, 0, 1\n')).toMatch(/^set\.csv:1: expected 'size first_use last_use'/);
  });

  it('leaves the other formats alone', () => {
    expect(parseBufferSet('# size first last\n16 0 1\n32 1 2\n', 'set.txt').format).toBe('intervals');
    expect(parseBufferSet('{"pools":[{"name":"p"}],"buffers":[]}', 'set.json').format).toBe('json');
  });
});
