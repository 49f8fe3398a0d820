/** The error `f` throws, for asserting on its class and exact message; fails the test when `f` returns. */
export function errorOf(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}
