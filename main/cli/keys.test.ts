import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';

const redis = useRedis();
afterAll(closeAdmins);
beforeAll(async () => {
  const admin = await adminClient(redis());
  const p = admin.pipeline();
  for (let i = 0; i < 1_200; i++) p.set(`user:${i % 3}:${i}`, 'v');
  for (let i = 0; i < 300; i++) p.hset(`cart:${i}`, 'f', 'v');
  p.set(Buffer.from('bin:\xff\r\n', 'latin1'), 'x', 'EX', 500);
  p.set('plain', 'x');
  await p.exec();
});

const cli = (...args: string[]) => runCli(['keys', ...args, '--url', `${redis().url}/0`]);

describe('cacheboard keys', () => {
  it('tree --json prints the documented shape with exact counts, to --depth', async () => {
    const r = await cli('tree', '--json', '--depth', '2');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { total: number; complete: boolean; seconds: number; nodes: { prefix: string; count: number; children: unknown[] }[] };
    expect(j).toMatchObject({ total: 1_502, complete: true });
    expect(typeof j.seconds).toBe('number');
    expect(j.nodes.map((n) => [n.prefix, n.count])).toEqual([
      ['user:', 1_200],
      ['cart:', 300],
      ['bin:', 1],
    ]);
    expect(j.nodes[0]?.children).toEqual([
      { prefix: 'user:0:', count: 400, children: [] },
      { prefix: 'user:1:', count: 400, children: [] },
      { prefix: 'user:2:', count: 400, children: [] },
    ]);
  });

  it('tree prints an indented tree for people; --separator splits elsewhere', async () => {
    const r = await cli('tree', '--depth', '1');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^1,502 keys in [\d.]+ s\n {2}user: {2}1,200\n {2}cart: {2}300\n/);
    const slash = await cli('tree', '--separator', '/', '--json');
    expect((JSON.parse(slash.out) as { nodes: unknown[] }).nodes).toEqual([]);
  });

  it('ls --json lists matches with type and TTL; binary names come escaped; --type filters', async () => {
    const r = await cli('ls', '--match', 'bin:*', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { keys: { key: string; type: string; ttl_ms: number }[]; complete: boolean };
    expect(j.complete).toBe(true);
    expect(j.keys).toHaveLength(1);
    expect(j.keys[0]).toMatchObject({ key: 'bin:\\xff\\r\\n', type: 'string' });
    expect(j.keys[0]?.ttl_ms).toBeGreaterThan(0);
    const typed = JSON.parse((await cli('ls', '--match', 'bin:\\xff*', '--json')).out) as { keys: unknown[] };
    expect(typed.keys).toHaveLength(1);
    const carts = JSON.parse((await cli('ls', '--match', '*', '--type', 'hash', '--limit', '5000', '--json')).out) as {
      keys: { type: string }[];
      complete: boolean;
    };
    expect(carts.keys).toHaveLength(300);
    expect(carts.complete).toBe(true);
    const few = JSON.parse((await cli('ls', '--match', 'user:*', '--limit', '10', '--json')).out) as { keys: unknown[]; complete: boolean };
    expect(few).toMatchObject({ complete: false });
    expect(few.keys).toHaveLength(10);
  });

  it('errors name the flag', async () => {
    const noMatch = await cli('ls');
    expect(noMatch.code).toBe(1);
    expect(noMatch.err).toMatch(/--match is required/);
    expect((await cli('ls', '--match', 'a\\q')).err).toMatch(/--match: /);
    expect((await cli('ls', '--match', '*', '--type', 'blob')).err).toMatch(/--type must be one of/);
    expect((await cli('tree', '--depth', 'x')).err).toMatch(/--depth must be/);
    expect((await cli('get', 'a\\q')).err).toMatch(/KEY: unknown escape \\q at position 2/);
  });
});
