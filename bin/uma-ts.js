#!/usr/bin/env node
'use strict';
// V8's tiering defaults suit long-running processes. A planner call is one cold burst of about a
// second: on one core, optimizing in the background (big inlined call trees, peeled loops, and
// functions that are hot only briefly) competes with the run itself. These three make a cold
// 2,000-buffer `uma-ts plan` 10-17% faster there, at the same steady-state speed; plans count
// their work, so they do not change (docs/memory-planner.md, "Cold runs"). Measured on V8 11
// (Node 20); other versions keep their defaults, as their tiering and flags differ. Measured
// again and left out (each within 3% of these three alone, min CPU of 5-8 pinned runs): --maglev,
// --always-sparkplug, --no-lazy-feedback-allocation, an interrupt
// budget of 300000, a cumulative inlining budget of 150, and switching off TurboFan's load
// elimination, escape analysis, array-builtin inlining or node splitting; --no-use-osr was
// slower (a cold long-lifetimes plan 0.83 -> 1.44 s). --no-concurrent-recompilation is 6-7%
// faster on one core, but only on node's command line: set here, V8 has already chosen to
// compile concurrently (docs/memory-planner.md, "Cold runs"). --no-concurrent-osr, unlike it, takes
// effect set here (V8 reads it at each on-stack replacement): a loop hot enough to compile in the
// middle of a call waits for its code instead of running on in the interpreter beside the
// compile, which on one core shares its time; 2-3% off a cold 2,000-buffer plan.
if (process.versions.v8.startsWith('11.')) {
  require('v8').setFlagsFromString('--interrupt-budget=200000 --no-turbo-loop-peeling --max-inlined-bytecode-size-cumulative=300 --no-concurrent-osr');
}
require('../dist/src/cli/io.js').ignoreClosedPipes([process.stdout, process.stderr]);
// runMain also turns a promise user code left rejected into one `error:` line (no stack).
require('../dist/src/cli/main.js').runMain(process.argv);
