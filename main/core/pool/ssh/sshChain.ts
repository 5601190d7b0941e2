import { existsSync, readFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { Client, type ConnectConfig, type ServerHostKeyAlgorithm } from 'ssh2';
import { checkKnownHosts, checkPinned, hostKeyAlgorithmsFor } from './knownHosts';
import type { HostKeyError } from './hostKeyError';
import type { SshHop, SshRoute } from './types';

const DEFAULT_KEEPALIVE_MS = 15_000;
/** Missed keepalives before ssh2 drops the connection: with the default, a dead path is noticed in ~45 s. */
const KEEPALIVE_COUNT_MAX = 3;
const READY_TIMEOUT_MS = 15_000;

/** A connected chain of SSH clients; the last one opens the channels to Redis. */
export interface SshChain {
  forwardOut(host: string, port: number): Promise<Duplex>;
  /** Called once when any client of the chain closes (the chain is then dead). */
  onClose(cb: (err?: Error) => void): void;
  close(): void;
}

/** Connect hop by hop: each hop's socket is a `forwardOut` channel of the previous hop (ProxyJump). */
export async function connectChain(route: SshRoute): Promise<SshChain> {
  if (route.hops.length === 0) throw new Error('An SSH route needs at least one hop');
  const clients: Client[] = [];
  try {
    let sock: Duplex | undefined;
    for (const hop of route.hops) {
      const client: Client = await connectHop(route, hop, sock);
      clients.push(client);
      sock = undefined;
      const next = route.hops[clients.length];
      if (next !== undefined) sock = await forwardOut(client, next.host, next.port ?? 22, hopName(hop));
    }
  } catch (err) {
    for (const c of clients) c.end();
    throw err;
  }
  return chainOf(clients, hopName(route.hops[route.hops.length - 1] as SshHop));
}

function chainOf(clients: Client[], lastName: string): SshChain {
  const last = clients[clients.length - 1] as Client;
  const closeListeners: ((err?: Error) => void)[] = [];
  let closed = false;
  let lastError: Error | undefined;
  const onDead = (): void => {
    if (closed) return;
    closed = true;
    for (const c of clients) c.end();
    for (const cb of closeListeners) cb(lastError);
  };
  for (const c of clients) {
    c.on('error', (err) => {
      lastError = err;
    });
    c.on('close', onDead);
  }
  return {
    forwardOut: (host, port) => forwardOut(last, host, port, lastName),
    onClose: (cb) => closeListeners.push(cb),
    close: () => {
      closed = true;
      for (const c of clients) c.end();
    },
  };
}

function forwardOut(client: Client, host: string, port: number, via: string): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    client.forwardOut('127.0.0.1', 0, host, port, (err, stream) => {
      if (err) reject(new Error(`SSH host ${via} could not open a connection to ${host}:${port}: ${err.message}`));
      else resolve(stream);
    });
  });
}

function hopName(hop: SshHop): string {
  return `${hop.user ?? userInfo().username}@${hop.host}:${hop.port ?? 22}`;
}

function connectHop(route: SshRoute, hop: SshHop, sock: Duplex | undefined): Promise<Client> {
  const port = hop.port ?? 22;
  const knownHosts = route.pinned === undefined ? readKnownHosts(route.knownHostsFile) : '';
  let refused: HostKeyError | null = null;
  const config: ConnectConfig = {
    host: hop.host,
    port,
    username: hop.user ?? userInfo().username,
    keepaliveInterval: route.keepaliveMs ?? DEFAULT_KEEPALIVE_MS,
    keepaliveCountMax: KEEPALIVE_COUNT_MAX,
    readyTimeout: READY_TIMEOUT_MS,
    hostVerifier: (key: Buffer) => {
      refused = route.pinned === undefined ? checkKnownHosts(knownHosts, hop.host, port, key) : checkPinned(route.pinned, hop.host, port, key);
      return refused === null;
    },
  };
  const algorithms = route.pinned === undefined ? hostKeyAlgorithmsFor(knownHosts, hop.host, port) : [];
  if (algorithms.length > 0) config.algorithms = { serverHostKey: algorithms as ServerHostKeyAlgorithm[] };
  if (sock !== undefined) config.sock = sock;
  if (hop.keyFile !== undefined) config.privateKey = readKey(hop.keyFile);
  if (hop.passphrase !== undefined) config.passphrase = hop.passphrase;
  if (hop.password !== undefined) {
    config.password = hop.password;
    // Servers with PAM often offer passwords only as keyboard-interactive.
    config.tryKeyboard = true;
  }
  if (hop.agent !== undefined) config.agent = hop.agent;
  const client = new Client();
  if (hop.password !== undefined) {
    const password = hop.password;
    client.on('keyboard-interactive', (_name, _instr, _lang, prompts, finish) => finish(prompts.map(() => password)));
  }
  return new Promise((resolve, reject) => {
    const fail = (err: Error & { level?: string }): void => {
      client.removeAllListeners('ready');
      client.end();
      reject(refused ?? describeFailure(err, hop));
    };
    client.once('error', fail);
    client.once('ready', () => {
      client.off('error', fail);
      // Until chainOf() listens, a later error (an earlier hop dropping while the next connects) must not
      // be an unhandled 'error' event: ssh2 follows it with 'close', which is what ends the chain.
      client.on('error', () => undefined);
      resolve(client);
    });
    try {
      client.connect(config);
    } catch (err) {
      // ssh2 throws synchronously for a key it cannot parse or decrypt.
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** Errors name the hop and the cause, never a secret (ssh2's own messages carry none). */
function describeFailure(err: Error & { level?: string }, hop: SshHop): Error {
  const name = hopName(hop);
  if (err.level === 'client-authentication') return new Error(`SSH authentication failed for ${name} (${authMethods(hop)})`);
  if (err.level === 'client-timeout') return new Error(`SSH connection to ${name} timed out`);
  if (/passphrase|privateKey|Cannot parse/i.test(err.message)) return new Error(`SSH key ${hop.keyFile ?? ''} for ${name}: ${err.message}`);
  return new Error(`SSH connection to ${name} failed: ${err.message}`);
}

function authMethods(hop: SshHop): string {
  const methods = [hop.keyFile === undefined ? '' : `key ${hop.keyFile}`, hop.agent === undefined ? '' : 'agent', hop.password === undefined ? '' : 'password'];
  const tried = methods.filter((m) => m !== '');
  return tried.length === 0 ? 'no key, agent or password given' : `tried ${tried.join(', ')}`;
}

function readKey(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new Error(`SSH key ${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
  }
}

function readKnownHosts(file: string | undefined): string {
  const path = file ?? join(homedir(), '.ssh', 'known_hosts');
  // A missing known_hosts means every host is unknown: verification still refuses, it never accepts.
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}
