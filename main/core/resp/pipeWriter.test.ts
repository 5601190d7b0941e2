import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, eventually, startRedis, stopAllRedis, useRedis } from '../../../testing/redis';
import type { CommandBatch, PipeProgress } from './types';
import { pipeLoad, type PipeOptions } from './pipeWriter';
import { PipeStopped } from './pipeStopped';
import { openRawConnection, type RawConnection } from './rawConnection';

afterAll(async () => {
  await closeAdmins();
  await stopAllRedis();
});

// A tiny RESP encoder of its own, so these tests do not lean on the sources under construction.
function encode(args: readonly string[]): string {
  let out = `*${args.length}\r\n`;
  for (const a of args) out += `$${Buffer.byteLength(a)}\r\n${a}\r\n`;
  return out;
}

interface BatchOpts {
  perBatch?: number;
  /** The input line of command i (0-based); default i + 1. */
  lineOf?: (i: number) => number;
  /** Called before each batch is yielded; may wait. */
  before?: (batchNo: number) => Promise<void> | void;
}

/** Commands into CommandBatches, lazily: only one batch exists at a time. */
async function* batches(commands: Iterable<readonly string[]>, opts: BatchOpts = {}): AsyncGenerator<CommandBatch> {
  const perBatch = opts.perBatch ?? 2_000;
  const lineOf = opts.lineOf ?? ((i: number) => i + 1);
  let text = '';
  let lines: number[] = [];
  let i = 0;
  let batchNo = 0;
  let bytesRead = 0;
  const cut = (): CommandBatch => {
    const resp = Buffer.from(text);
    bytesRead += resp.length;
    const b = { resp, count: lines.length, lines: Uint32Array.from(lines), records: i, bytesRead };
    text = '';
    lines = [];
    return b;
  };
  for (const args of commands) {
    text += encode(args);
    lines.push(lineOf(i));
    i++;
    if (lines.length === perBatch) {
      await opts.before?.(batchNo++);
      yield cut();
    }
  }
  if (lines.length > 0) {
    await opts.before?.(batchNo);
    yield cut();
  }
}

function* range<T>(n: number, f: (i: number) => T): Generator<T> {
  for (let i = 0; i < n; i++) yield f(i);
}

function* forever(): Generator<string[]> {
  for (let i = 0; ; i++) yield ['SET', `k:${i % 1000}`, 'v'];
}

const conns: RawConnection[] = [];
afterEach(() => {
  for (const c of conns.splice(0)) c.destroy();
});

describe('pipeLoad', () => {
  const redis = useRedis();
  const open = async (db = 0, name?: string): Promise<RawConnection> => {
    const c = await openRawConnection(specFor(redis()), db, name === undefined ? {} : { name });
    conns.push(c);
    return c;
  };
  const opts = (over: Partial<PipeOptions> = {}): PipeOptions => ({ file: 'in.resp', maxErrors: 0, ...over });
  const rejection = async (p: Promise<unknown>): Promise<PipeStopped> => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PipeStopped);
    return err as PipeStopped;
  };

  it('writes 300,000 SETs, and every key holds its value', async () => {
    const admin = await adminClient(redis(), { db: 1 });
    await admin.flushdb();
    const n = 300_000;
    const result = await pipeLoad(await open(1), batches(range(n, (i) => ['SET', `key:${i}`, `value-${i}`])), opts());
    expect(result).toMatchObject({ commands: n, replies: n, errors: 0, records: n, firstErrors: [] });
    expect(await admin.dbsize()).toBe(n);
    const sample = [0, 1, 4_999, 123_456, n - 1];
    expect(await admin.mget(sample.map((i) => `key:${i}`))).toEqual(sample.map((i) => `value-${i}`));
  });

  it('reports an error reply at the input line of the command that caused it', async () => {
    const admin = await adminClient(redis());
    await admin.set('not-a-number', 'abc');
    const cmds = [...range(10_000, (i) => (i === 7_777 ? ['INCR', 'not-a-number'] : ['SET', `e:${i}`, 'x']))];
    // Three input lines per command, as in a multi-line RESP file: line = 3i + 1.
    const result = await pipeLoad(await open(), batches(cmds, { perBatch: 999, lineOf: (i) => 3 * i + 1 }), opts({ maxErrors: 5 }));
    expect(result.errors).toBe(1);
    expect(result.firstErrors).toEqual([{ position: `in.resp:${3 * 7_777 + 1}`, message: 'ERR value is not an integer or out of range' }]);
  });

  it('with maxErrors 0 stops writing at the first error, after the commands already sent are answered', async () => {
    const total = 200_000;
    const cmds = range(total, (i) => (i === 150 ? ['SET', 'too', 'many', 'args', 'here'] : ['SET', `s:${i}`, 'x']));
    const err = await rejection(pipeLoad(await open(), batches(cmds, { perBatch: 100 }), opts({ maxInFlightCommands: 1_000 })));
    expect(err.stoppedBy).toBe('errors');
    expect(err.code).toBe('REDIS');
    expect(err.message).toContain('too many errors');
    expect(err.message).toContain('in.resp:151');
    expect(err.result.firstErrors[0]).toEqual({ position: 'in.resp:151', message: 'ERR syntax error' });
    expect(err.result.replies).toBe(err.result.commands);
    expect(err.result.commands).toBeLessThan(total);
    expect(err.result.commands).toBeLessThanOrEqual(151 + 1_000 + 100);
  });

  it('with maxErrors N completes with N errors and stops at N + 1', async () => {
    const admin = await adminClient(redis());
    await admin.set('str', 'abc');
    const bad = new Set([10, 500, 4_321]);
    const cmds = (): Iterable<string[]> => range(5_000, (i) => (bad.has(i) ? ['LPUSH', 'str', 'x'] : ['SET', `n:${i}`, 'x']));
    const ok = await pipeLoad(await open(), batches(cmds(), { perBatch: 64 }), opts({ maxErrors: 3 }));
    expect(ok.errors).toBe(3);
    expect(ok.firstErrors.map((e) => e.position)).toEqual(['in.resp:11', 'in.resp:501', 'in.resp:4322']);
    expect(ok.firstErrors[0]?.message).toMatch(/^WRONGTYPE/);
    const err = await rejection(pipeLoad(await open(), batches(cmds(), { perBatch: 64 }), opts({ maxErrors: 2 })));
    expect(err.stoppedBy).toBe('errors');
    expect(err.result.errors).toBe(3);
  });

  it('keeps only the first 100 errors but counts them all', async () => {
    const cmds = range(3_000, (i) => (i % 10 === 0 ? ['NOSUCHCOMMAND', String(i)] : ['SET', `c:${i}`, 'x']));
    const result = await pipeLoad(await open(), batches(cmds), opts({ maxErrors: 1_000 }));
    expect(result.errors).toBe(300);
    expect(result.firstErrors).toHaveLength(100);
    expect(result.firstErrors[99]?.position).toBe('in.resp:991');
  });

  it('executes commands in input order: interleaved SET/APPEND/DEL end in the sequential state', async () => {
    const admin = await adminClient(redis(), { db: 2 });
    await admin.flushdb();
    let seed = 42;
    const rand = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const expected = new Map<string, string>();
    const cmds: string[][] = [];
    for (let i = 0; i < 60_000; i++) {
      const key = `o:${rand(50)}`;
      const op = rand(3);
      if (op === 0) {
        cmds.push(['SET', key, String(i)]);
        expected.set(key, String(i));
      } else if (op === 1) {
        cmds.push(['APPEND', key, `.${i % 10}`]);
        expected.set(key, (expected.get(key) ?? '') + `.${i % 10}`);
      } else {
        cmds.push(['DEL', key]);
        expected.delete(key);
      }
    }
    await pipeLoad(await open(2), batches(cmds, { perBatch: 333 }), opts());
    const keys = [...range(50, (k) => `o:${k}`)];
    const actual = await admin.mget(keys);
    expect(actual).toEqual(keys.map((k) => expected.get(k) ?? null));
  });

  it('never has more commands in flight than the bound, even while Redis is paused', async () => {
    const admin = await adminClient(redis());
    const conn = await open();
    let maxInFlight = 0;
    let pausedSample: PipeProgress | undefined;
    const bound = 5_000;
    // CLIENT PAUSE … WRITE holds our SETs: without the bound the writer would run far ahead.
    await admin.call('CLIENT', 'PAUSE', '600', 'WRITE');
    const result = await pipeLoad(
      conn,
      batches(
        range(50_000, (i) => ['SET', `b:${i}`, 'x']),
        { perBatch: 500 },
      ),
      opts({
        maxInFlightCommands: bound,
        onProgress: (p) => {
          maxInFlight = Math.max(maxInFlight, p.commands - p.replies);
          if (p.replies === 0) pausedSample = p;
        },
      }),
    );
    expect(result.replies).toBe(50_000);
    expect(maxInFlight).toBeLessThanOrEqual(bound);
    // It did run up to the bound while paused, and waited there.
    expect(pausedSample?.commands).toBe(bound);
  });

  it('never has more bytes in flight than the byte bound, whatever the command count allows', async () => {
    const admin = await adminClient(redis());
    const conn = await open();
    const value = 'v'.repeat(1000);
    // ~1,030 bytes a command, 100 a batch: a 300 KB bound lets at most 2 batches out while paused.
    let maxInFlight = 0;
    let pausedSample: PipeProgress | undefined;
    await admin.call('CLIENT', 'PAUSE', '600', 'WRITE');
    const result = await pipeLoad(
      conn,
      batches(
        range(5_000, (i) => ['SET', `y:${i}`, value]),
        { perBatch: 100 },
      ),
      opts({
        maxInFlightBytes: 300_000,
        onProgress: (p) => {
          maxInFlight = Math.max(maxInFlight, p.commands - p.replies);
          if (p.replies === 0) pausedSample = p;
        },
      }),
    );
    expect(result.replies).toBe(5_000);
    expect(maxInFlight).toBeLessThanOrEqual(300);
    expect(pausedSample?.commands).toBeGreaterThanOrEqual(200);
  });

  it('calls onProgress at most ten times a second, plus once at the end', async () => {
    const calls: number[] = [];
    const started = Date.now();
    const result = await pipeLoad(
      await open(),
      batches(
        range(20_000, (i) => ['SET', `p:${i}`, 'x']),
        { perBatch: 100, before: () => new Promise((r) => setTimeout(r, 5)) },
      ),
      opts({ onProgress: () => calls.push(Date.now()) }),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeGreaterThan(0.5);
    expect(calls.length).toBeGreaterThan(2);
    expect(calls.length).toBeLessThanOrEqual(Math.ceil(seconds * 10) + 1);
    expect(result.replies).toBe(20_000);
  });

  it('rejects promptly when cancelled mid-load, and the connection is gone from Redis', async () => {
    const admin = await adminClient(redis());
    const conn = await open(0, 'cancel-me');
    const ac = new AbortController();
    let cancelledAt = 0;
    const load = pipeLoad(
      conn,
      batches(forever()),
      opts({
        signal: ac.signal,
        onProgress: (p) => {
          if (p.replies > 20_000 && cancelledAt === 0) {
            cancelledAt = Date.now();
            ac.abort();
          }
        },
      }),
    );
    const err = await rejection(load);
    expect(Date.now() - cancelledAt).toBeLessThan(1_000);
    expect(err.stoppedBy).toBe('cancelled');
    expect(err.code).toBe('CANCELLED');
    expect(err.message).toMatch(/^Load cancelled after \d+ of \d+ commands were acknowledged/);
    expect(conn.socket.destroyed).toBe(true);
    expect(await eventually(async () => (await clientsNamed(admin, 'cancel-me')).length === 0, 2_000)).toBe(true);
  });

  it('rejects promptly when cancelled while the source is stalled', async () => {
    const ac = new AbortController();
    const stalled = batches(
      range(10, (i) => ['SET', `x:${i}`, 'x']),
      { perBatch: 5, before: (n) => (n === 1 ? new Promise<void>(() => undefined) : undefined) },
    );
    const load = pipeLoad(await open(), stalled, opts({ signal: ac.signal }));
    setTimeout(() => ac.abort(), 100);
    const err = await rejection(load);
    expect(err.stoppedBy).toBe('cancelled');
    expect(err.result).toMatchObject({ commands: 5, replies: 5 });
  });

  it('reports a cancel as cancelled even when the source, on the same signal, throws an AbortError', async () => {
    const ac = new AbortController();
    // Listening before pipeLoad does, as a source given the signal first would.
    const aborted = new Promise((_, reject) => ac.signal.addEventListener('abort', () => reject(ac.signal.reason)));
    aborted.catch(() => undefined);
    async function* aborting(): AsyncGenerator<CommandBatch> {
      yield* batches(range(100, (i) => ['SET', `a:${i}`, 'x']));
      await aborted;
    }
    const load = pipeLoad(await open(), aborting(), opts({ signal: ac.signal }));
    setTimeout(() => ac.abort(), 50);
    expect((await rejection(load)).stoppedBy).toBe('cancelled');
  });

  it("rethrows the source's own error once the commands already sent are answered", async () => {
    const admin = await adminClient(redis(), { db: 3 });
    await admin.flushdb();
    async function* broken(): AsyncGenerator<CommandBatch> {
      yield* batches(range(3_000, (i) => ['SET', `i:${i}`, 'x']));
      // What a bulk source's InputError says; the pipe rethrows any source error as it is.
      throw new Error("in.resp:3001: expected '*', got 'x'");
    }
    await expect(pipeLoad(await open(3), broken(), opts())).rejects.toThrow("in.resp:3001: expected '*', got 'x'");
    expect(await admin.dbsize()).toBe(3_000);
  });

  it('stops with a protocol error when a command switches the reply protocol (HELLO 3)', async () => {
    const cmds = [
      ['SET', 'h', '1'],
      ['HELLO', '3'],
      ['SET', 'h', '2'],
    ];
    const err = await rejection(pipeLoad(await open(), batches(cmds), opts()));
    expect(err.stoppedBy).toBe('protocol');
    expect(err.code).toBe('INTERNAL');
    expect(err.message).toMatch(/after 1 replies/);
  });
});

describe('pipeLoad when Redis dies', () => {
  it('rejects with "outcome … unknown" within seconds when redis-server is killed -9 mid-load', async () => {
    const proc = await startRedis();
    const conn = await openRawConnection(specFor(proc), 0);
    conns.push(conn);
    let killedAt = 0;
    const load = pipeLoad(conn, batches(forever()), {
      file: 'in.resp',
      maxErrors: 0,
      onProgress: (p) => {
        if (p.replies > 50_000 && killedAt === 0) {
          killedAt = Date.now();
          proc.kill('SIGKILL');
        }
      },
    });
    const err = await load.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(PipeStopped);
    const stopped = err as PipeStopped;
    expect(Date.now() - killedAt).toBeLessThan(3_000);
    expect(stopped.code).toBe('DISCONNECTED');
    expect(stopped.message).toMatch(
      new RegExp(`^Connection to 127\\.0\\.0\\.1:${proc.port} lost after \\d+ of \\d+ commands were acknowledged; outcome of in-flight commands unknown$`),
    );
    expect(stopped.result.replies).toBeGreaterThan(50_000);
    expect(stopped.result.commands).toBeGreaterThan(stopped.result.replies);
  });
});
