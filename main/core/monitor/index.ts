// The monitor job's public face: what other job folders and the rpc binding may import.
export { MonitorHub, OWN_NAME_PREFIX, type LinesBatch, type MonitorHubOptions, type MonitorTarget, type Viewer } from './monitorHub';
export { monitorTargets } from './monitorTargets';
export { ownClients } from './ownClients';
