import { encode } from '@msgpack/msgpack';
import { afterAll, describe, expect, it } from 'vitest';
import { DECODE_LIMITS, type DecodeLimits } from './decodeLimits';
import { DecodeRunner } from './decodeRunner';
import type { DecodeJob } from './decodeBytes';

const runner = new DecodeRunner();
afterAll(() => runner.close());

const job = (bytes: Uint8Array, limits: Partial<DecodeLimits> = {}): DecodeJob => ({
  bytes,
  as: 'auto',
  compression: 'auto',
  valueBytes: bytes.length,
  limits: { ...DECODE_LIMITS, ...limits },
});

/** A msgpack array of n maps: seconds of decoding and rendering at a few million. */
const heavy = (n: number): Buffer => Buffer.from(encode(Array.from({ length: n }, (_, i) => ({ id: i, tag: 'x' }))));
const HEAVY = heavy(1_000_000);

describe('DecodeRunner: decoding in a worker thread', () => {
  it('decodes in the worker; the event loop keeps turning meanwhile', async () => {
    const big = HEAVY;
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const t0 = performance.now();
    const r = await runner.run(job(big, { timeMs: 30_000 }));
    const ms = performance.now() - t0;
    clearInterval(timer);
    expect(r).toMatchObject({ format: 'msgpack', error: null, truncated: true, decodedBytes: big.length });
    // On the event loop this would be one long task: here the timer fired all along.
    expect(ticks).toBeGreaterThan(Math.floor(ms / 5 / 4));
  });

  it('a decode past its time limit has its worker terminated and says so; the next decode gets a fresh worker', async () => {
    const slow = runner.run(job(HEAVY, { timeMs: 50, textChars: 64 * 1024 * 1024 }));
    const queued = runner.run(job(Buffer.from('{"after":true}')));
    const r = await slow;
    expect(r).toMatchObject({ error: 'decoding took longer than 0.05 s; the value may be hostile or too large', text: '' });
    expect(await queued).toMatchObject({ format: 'json', text: '{\n  "after": true\n}', error: null });
  });

  it('jobs take turns in order, and close() ends the ones still waiting', async () => {
    const local = new DecodeRunner();
    const a = local.run(job(Buffer.from('[1]')));
    const b = local.run(job(Buffer.from('[2]')));
    expect((await a).text).toBe('[\n  1\n]');
    expect((await b).text).toBe('[\n  2\n]');
    const c = local.run(job(HEAVY, { timeMs: 30_000 }));
    const d = local.run(job(Buffer.from('[3]')));
    await new Promise((r) => setTimeout(r, 50));
    await local.close();
    expect((await c).error).toBe('decoding was stopped (shutting down)');
    expect((await d).error).toBe('decoding was stopped (shutting down)');
  });
});
