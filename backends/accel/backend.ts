/**
 * The seed's accelerator as a UMA backend: a pre-partitioning pass puts an input fetcher in
 * front of every offloadable int8 conv2d, both are matched as composites and lowered to
 * kernel calls, and the memory declaration states which pools each operand may use.
 */
import { UmaBackend } from '../../src/index';
import { ACCEL_MEMORY } from './memory';
import { insertFetchersPass } from './insertFetchers';
import { ACCEL_TARGET, CONV_COMPOSITE, CONV_PATTERN, FETCHER_COMPOSITE, FETCHER_PATTERN } from './names';
import { convPattern, convPredicate, fetcherPattern } from './patterns';
import { ACCEL_RUNTIME_HEADER, accelRuntimeSources } from './runtimeSources';
import { convStrategy, fetcherStrategy } from './strategies';

export class AccelBackend extends UmaBackend {
  readonly targetName = ACCEL_TARGET;

  constructor() {
    super();
    this.registerGraphPass('pre_partitioning', insertFetchersPass);
    this.registerPattern(FETCHER_PATTERN, fetcherPattern());
    this.registerPattern(CONV_PATTERN, convPattern(), convPredicate);
    // Each composite is lowered as one unit, so lowering records its operands under the
    // composite names the operand constraints use.
    this.registerOperatorStrategy(FETCHER_COMPOSITE, fetcherStrategy);
    this.registerOperatorStrategy(CONV_COMPOSITE, convStrategy);
    this.registerCodegen({
      includes: () => `#include "${ACCEL_RUNTIME_HEADER}"\n`,
      runtimeSources: accelRuntimeSources,
      // The simulator traps on any pointer outside a registered pool (runtime/accel_runtime.h).
      registerPool: (p) =>
        `accel_register_pool(${JSON.stringify(p.name)}, ${p.base}, ${p.sizeBytes}, ${p.access === 'rw' ? 'ACCEL_ACCESS_RW' : 'ACCEL_ACCESS_RO'})`,
    });
    this.registerMemory(ACCEL_MEMORY);
  }
}
