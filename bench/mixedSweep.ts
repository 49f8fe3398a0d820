/**
 * `node dist/bench/mixedSweep.js FROM TO [COUNT]`: `auto` on the mixed family's seeds FROM..TO
 * (generators.ts, `mixedFamily`; COUNT buffers each, 2,000 unless given) against TFLite Micro's
 * greedy plan and Vela 3.10's hill climb, one line per set and a summary: how many plans are no
 * larger than each reference, how many are proven optimal, the mean overhead over the lower
 * bound and the slowest plan. The sets are random draws of families the bench's own sets do not
 * cover, so a run over a few hundred seeds is a held-out check of the planner
 * (docs/memory-planner.md reports one). Exits 1 when a plan is larger than either reference.
 */
import { mixedFamily } from './generators';
import { compareWithReferences, pct } from './portfolio';

function main(argv: readonly string[]): number {
  const [from, to, count] = argv.map(Number);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from > to || (count !== undefined && !(Number.isInteger(count) && count > 0))) {
    console.error('usage: node dist/bench/mixedSweep.js FROM TO [COUNT]  (seeds FROM..TO, COUNT buffers per set)');
    return 2;
  }
  let sets = 0;
  let notAboveTflm = 0;
  let notAboveVela = 0;
  let withVela = 0;
  let proven = 0;
  let overheads = 0;
  let slowest = 0;
  const losses: string[] = [];
  for (let seed = from; seed <= to; seed++) {
    const set = mixedFamily(seed, count);
    const r = compareWithReferences(set);
    sets++;
    overheads += pct(r.auto, r.bound);
    slowest = Math.max(slowest, r.ms);
    if (r.stats.provenOptimal) proven++;
    if (r.auto <= r.tflm) notAboveTflm++;
    if (!Number.isNaN(r.vela)) {
      withVela++;
      if (r.auto <= r.vela) notAboveVela++;
    }
    const above = [r.auto > r.tflm ? `TFLM ${r.tflm} B` : '', r.auto > r.vela ? `Vela ${r.vela} B` : ''].filter((x) => x).join(', ');
    if (above) losses.push(`${set.name}: auto ${r.auto} B above ${above}`);
    console.log(
      `${set.name.padEnd(22)} ${set.description!.padEnd(80)} bound ${String(r.bound).padStart(9)}  ` +
        `auto ${pct(r.auto, r.bound).toFixed(3).padStart(7)}% ${r.stats.provenOptimal ? 'proven' : 'gap   '} ${r.ms.toFixed(0).padStart(5)} ms  ` +
        `TFLM ${pct(r.tflm, r.bound).toFixed(3).padStart(7)}%  Vela ${Number.isNaN(r.vela) ? '      -' : pct(r.vela, r.bound).toFixed(3).padStart(7)}%`,
    );
  }
  for (const l of losses) console.log(`ABOVE ${l}`);
  console.log(
    `mixed family, seeds ${from}-${to}: ${sets} sets, auto <= TFLM on ${notAboveTflm}/${sets}, <= Vela on ${notAboveVela}/${withVela}, ` +
      `proven optimal ${proven}/${sets}, mean overhead ${(overheads / sets).toFixed(3)}%, slowest plan ${slowest.toFixed(0)} ms`,
  );
  return losses.length === 0 ? 0 : 1;
}

process.exitCode = main(process.argv.slice(2));
