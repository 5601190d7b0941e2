// The metrics (Overview) job's public face: what other job folders and the rpc binding may import.
export { snapshotProfile, toInfoJson, type InfoSnapshot } from './infoReport';
export { MetricsHub, type MetricsHubOptions, type RecordOptions, type WatchOptions } from './metricsHub';
export { serverInfo } from './serverInfo';
export { logsWithoutValues } from './commandlog';
export { withoutValues } from './slowlog';
