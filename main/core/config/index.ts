// The config job's public face: what other job folders and the rpc binding may import.
export { MAX_CONFIG_NODES, type ConfigNodeRef, type NodeAccess } from './configNodes';
export { configAccess, readProfileConfig, rewriteProfileConfig, setProfileConfig, type ConfigTarget, type NodeRecord } from './profileConfig';
