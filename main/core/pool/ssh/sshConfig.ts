import type { SshRoute } from './types';

/** Resolve `[user@]host[:port]` or a Host alias with an ssh config file into a route (ProxyJump → hops). */
export async function routeFromSshConfig(spec: string, opts: { configFile?: string; jumps?: string[] }): Promise<SshRoute> {
  await Promise.resolve();
  void opts;
  throw new Error(`not implemented yet: ${spec}`);
}
