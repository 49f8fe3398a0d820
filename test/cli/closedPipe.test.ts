/**
 * `uma-ts plan big.txt | head`: the reader closes the pipe early. The binary installs
 * ignoreClosedPipes on its stdout/stderr, so that is not a crash with a stack trace.
 */
import { EventEmitter } from 'events';
import * as fs from 'fs';
import * as path from 'path';
import { ignoreClosedPipes } from '../../src/cli/io';

const errnoError = (code: string) => Object.assign(new Error(`write ${code}`), { code, syscall: 'write' });

describe('ignoreClosedPipes', () => {
  test('a closed pipe (EPIPE) on stdout or stderr is swallowed', () => {
    const out = new EventEmitter();
    const err = new EventEmitter();
    ignoreClosedPipes([out, err]);
    // An 'error' event without a listener throws; with ours an EPIPE is dropped.
    expect(() => out.emit('error', errnoError('EPIPE'))).not.toThrow();
    expect(() => err.emit('error', errnoError('EPIPE'))).not.toThrow();
  });

  test('any other stream error is still thrown', () => {
    const out = new EventEmitter();
    ignoreClosedPipes([out]);
    expect(() => out.emit('error', errnoError('EIO'))).toThrow('write EIO');
  });

  test('the binary installs it on the process streams before running the CLI', () => {
    const bin = fs.readFileSync(path.join(__dirname, '..', '..', 'bin', 'uma-ts.js'), 'utf8');
    const install = bin.indexOf('ignoreClosedPipes([process.stdout, process.stderr])');
    expect(install).toBeGreaterThan(0);
    expect(install).toBeLessThan(bin.indexOf('.runMain(process.argv)'));
  });
});
