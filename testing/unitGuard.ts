import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterEach } from 'vitest';
import { UNIT_SUITE_ENV, belongsInIntegration } from './suiteGuard';

/**
 * Setup file of the unit project (vitest.config.ts). A unit test may start no process, listen
 * on no socket and connect to nothing (Redis least of all): each of those throws here, and is
 * also failed after the test, because client libraries such as ioredis catch a connect error
 * and retry quietly instead of letting it reach the test.
 */
process.env[UNIT_SUITE_ENV] = '1';

const refused: string[] = [];
const refuse = (what: string): never => {
  const message = belongsInIntegration(what);
  refused.push(message);
  throw new Error(message);
};

const guarded = Symbol.for('cacheboard.unitGuard');
const patches = globalThis as { [guarded]?: true };
if (!patches[guarded]) {
  patches[guarded] = true;
  const processStarters = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const;
  for (const name of processStarters) {
    Object.defineProperty(childProcess, name, {
      configurable: true,
      writable: true,
      value: (file: unknown) => refuse(`run a child process (${name} ${String(file)})`),
    });
  }
  syncBuiltinESMExports();
  net.Socket.prototype.connect = function connect(...args: unknown[]): never {
    const [first] = args;
    const target = typeof first === 'object' && first !== null ? JSON.stringify(first) : String(first);
    return refuse(`open a connection (${target})`);
  };
  net.Server.prototype.listen = function listen(): never {
    return refuse('listen on a socket');
  };
}

afterEach(() => {
  const seen = refused.splice(0);
  if (seen.length > 0) throw new Error(seen[0]);
});
