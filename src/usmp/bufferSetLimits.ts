/** How many buffers one buffer set may hold (every input format counts them while reading). */
import { ConfigError } from '../errors';

/**
 * Buffers in one set. A plan holds several tables per buffer and conflict: a million buffers
 * took about 2 GB (greedy_by_size and auto, 1.6-1.9 GB of RSS), and four million ran V8 out of
 * heap after minutes, with a crash instead of an error (the input was a 73 MB text file, well
 * under the size limit of input files). Counted while reading, before the tables are built.
 */
export const MAX_PLAN_BUFFERS = 1_000_000;

export function tooManyBuffers(where: string, context: { file: string; line?: number; jsonPath?: string }): ConfigError {
  return new ConfigError(
    `${where}: more than ${MAX_PLAN_BUFFERS} buffers; uma-ts plans at most ${MAX_PLAN_BUFFERS} in one set (a million take about 2 GB of memory): split the set`,
    context,
  );
}
