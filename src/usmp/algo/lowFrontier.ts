/**
 * The low frontier of a core run (coreRun.ts): a list holding every unplaced buffer whose lowest
 * offset is at most `reach`, and perhaps buffers that have been placed or have risen above
 * `reach` since they were listed, which readers drop as they pass them.
 *
 * A level of the run needs only the buffers below its dominance height (the lowest top any
 * unplaced buffer can reach): about 2% of the unplaced ones on 2,000-buffer sets. While that
 * height is within reach, the frontier answers for all of them. Placing a buffer only raises
 * offsets, which keeps the invariant; undoing a placement lowers offsets back, so the run
 * admits each buffer it lowers to within reach.
 */
export class LowFrontier {
  /** Buffers listed, `count` of them (by buffer index, in no particular order). */
  readonly list: Int32Array;
  /** 1 for a listed buffer. */
  readonly listed: Uint8Array;
  count = 0;
  /** Every unplaced buffer at or below this offset is listed. */
  reach = -Infinity;

  /** `n` buffer indices; at most `capacity` of them listed at once (the run's part). */
  constructor(n: number, capacity: number) {
    this.list = new Int32Array(capacity);
    this.listed = new Uint8Array(n);
  }

  /** Lists `b` unless it is listed already. */
  admit(b: number): void {
    if (this.listed[b] === 1) return;
    this.listed[b] = 1;
    this.list[this.count++] = b;
  }

  /** Empties the list, for a rebuild with a new reach. */
  clear(reach: number): void {
    const { list, listed } = this;
    for (let k = 0; k < this.count; k++) listed[list[k]] = 0;
    this.count = 0;
    this.reach = reach;
  }
}
