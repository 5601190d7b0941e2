/**
 * `npm run bench -- <suite>`: each suite prints one JSON line with its figures
 * next to the anchor it was measured against in the same run. Benchmarks are
 * not tests: they assert nothing.
 */
import { audienceBench } from './audience';
import { bulkBench } from './bulk';
import { clusterBench } from './cluster';
import { metricsBench } from './metrics';
import { monitorBench } from './monitor';
import { samplingBench } from './sampling';
import { startBench } from './start';
import { trialsBench } from './trials';

type Suite = () => Promise<Record<string, unknown>>;

const suites: Record<string, Suite> = {
  audience: audienceBench,
  bulk: bulkBench,
  cluster: clusterBench,
  metrics: metricsBench,
  monitor: monitorBench,
  sampling: samplingBench,
  start: startBench,
  trials: trialsBench,
};

async function main(): Promise<number> {
  const name = process.argv[2];
  const names = Object.keys(suites);
  if (name === undefined || !(name in suites)) {
    const known = names.length > 0 ? names.join(', ') : '(none yet)';
    process.stderr.write(`usage: npm run bench -- <suite>\nsuites: ${known}\n`);
    return name === undefined ? 0 : 2;
  }
  const figures = await suites[name]!();
  process.stdout.write(`${JSON.stringify({ suite: name, ...figures })}\n`);
  return 0;
}

main().then((c) => process.exit(c));
