export type { SshHop, SshRoute, TunnelLease, TunnelState, TunnelStateName, HostKeyReason } from './types';
export { HostKeyError } from './hostKeyError';
export { routeFromSshConfig } from './sshConfig';
export { SshTunnels } from './sshTunnels';
export { fingerprint } from './knownHosts';
