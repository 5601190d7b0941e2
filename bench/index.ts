/**
 * `npm run bench -- <suite>`: each suite prints one JSON line with its figures
 * next to the anchor it was measured against in the same run. Benchmarks are
 * not tests: they assert nothing.
 */
type Suite = () => Promise<Record<string, unknown>>;

/** Every suite, loaded on demand: a run loads only the modules of the suite it runs. */
const suites: Record<string, () => Promise<Suite>> = {
  audience: async () => (await import('./audience')).audienceBench,
  bulk: async () => (await import('./bulk')).bulkBench,
  cluster: async () => (await import('./cluster')).clusterBench,
  console: async () => (await import('./console')).consoleBench,
  keys: async () => (await import('./keys')).keysBench,
  'key-actions': async () => (await import('./keyActions')).keyActionsBench,
  metrics: async () => (await import('./metrics')).metricsBench,
  monitor: async () => (await import('./monitor')).monitorBench,
  sampling: async () => (await import('./sampling')).samplingBench,
  soak: async () => (await import('./soak')).soakBench,
  start: async () => (await import('./start')).startBench,
  trials: async () => (await import('./trials')).trialsBench,
};

async function main(): Promise<number> {
  const name = process.argv[2];
  const names = Object.keys(suites);
  if (name === undefined || !Object.hasOwn(suites, name)) {
    const known = names.length > 0 ? names.join(', ') : '(none yet)';
    process.stderr.write(`usage: npm run bench -- <suite>\nsuites: ${known}\n`);
    return name === undefined ? 0 : 2;
  }
  const figures = await (await suites[name]!())();
  process.stdout.write(`${JSON.stringify({ suite: name, ...figures })}\n`);
  return 0;
}

main().then((c) => process.exit(c));
