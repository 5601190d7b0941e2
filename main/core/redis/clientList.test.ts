import { describe, expect, it } from 'vitest';
import { MAX_FIELD_CHARS, fieldText, otherNamed, parseClientList } from './clientList';

// Redis 7.0's CLIENT LIST line, as redis-cli shows it.
const LINE =
  'id=5 addr=127.0.0.1:39516 laddr=127.0.0.1:7499 fd=8 name=worker-1 age=12 idle=3 flags=N db=2 sub=1 psub=2 ssub=0 multi=-1 qbuf=26 qbuf-free=20448 argv-mem=10 multi-mem=0 rbs=16384 rbp=16384 obl=0 oll=0 omem=512 tot-mem=37658 events=r cmd=client|list user=default redir=-1 resp=2';

describe('parseClientList', () => {
  it('reads the fields by name', () => {
    const { clients, unparsed } = parseClientList(Buffer.from(`${LINE}\n`));
    expect(unparsed).toBe(0);
    expect(clients).toEqual([
      {
        id: '5',
        addr: '127.0.0.1:39516',
        name: 'worker-1',
        user: 'default',
        db: 2,
        cmd: 'client|list',
        age: 12,
        idle: 3,
        flags: 'N',
        subs: 3,
        qbuf: 26,
        argvMem: 10,
        multiMem: 0,
        omem: 512,
        totMem: 37658,
      },
    ]);
  });

  it('reads a reordered, older or newer line the same, and keeps lib-name and lib-ver', () => {
    const older = 'addr=10.0.0.9:5000 id=77 name= age=1 idle=1 flags=b db=0 cmd=blpop omem=0 tot-mem=100 qbuf=0';
    const newer = `${LINE} lib-name=redis-py lib-ver=5.0.1 io-thread=0 tot-net-in=100`;
    const { clients } = parseClientList(`${older}\r\n${newer}\n`);
    expect(clients.map((c) => [c.id, c.addr, c.flags, c.cmd, c.user, c.subs])).toEqual([
      ['77', '10.0.0.9:5000', 'b', 'blpop', '', 0],
      ['5', '127.0.0.1:39516', 'N', 'client|list', 'default', 3],
    ]);
    expect(clients[1]?.lib).toBe('redis-py 5.0.1');
    expect(clients[0]?.lib).toBeUndefined();
  });

  it("reads Valkey 8's per-client traffic (tot-net-in, tot-net-out, tot-cmds) where the line has it, and leaves it unset where not", () => {
    // Valkey 8.0's fields, in the order valkey-io/valkey-doc commands/client-list.md lists them (watch, lib-name, tot-net-*, tot-cmds are Valkey 8's).
    const valkey =
      'id=4 addr=127.0.0.1:52000 laddr=127.0.0.1:6379 fd=10 name= age=30 idle=0 flags=N db=0 sub=0 psub=0 ssub=0 multi=-1 watch=0 qbuf=26 qbuf-free=20448 argv-mem=10 multi-mem=0 rbs=1024 rbp=0 obl=0 oll=0 omem=0 tot-mem=22426 events=r cmd=client|list user=default redir=-1 resp=2 lib-name= lib-ver= tot-net-in=2048 tot-net-out=409600 tot-cmds=37';
    const { clients } = parseClientList(`${valkey}\n${LINE}\n`);
    expect(clients.map((c) => [c.id, c.netIn, c.netOut, c.cmds])).toEqual([
      ['4', 2048, 409600, 37],
      ['5', undefined, undefined, undefined],
    ]);
  });

  it('skips and counts lines that are not a client, and reads numbers that are not numbers as 0', () => {
    const { clients, unparsed } = parseClientList(['garbage', 'id=abc addr=1.2.3.4:5', 'id=9', `id=3 addr=1.2.3.4:6 omem=lots idle= age=-`, ''].join('\n'));
    expect(unparsed).toBe(3);
    expect(clients.map((c) => [c.id, c.omem, c.idle, c.age])).toEqual([['3', 0, 0, 0]]);
  });

  it('escapes what is not printable ASCII, doubles a backslash, and never lets a name swallow the next field', () => {
    const raw = Buffer.concat([
      Buffer.from('id=8 addr=1.2.3.4:9 name='),
      Buffer.from([0x3c, 0x62, 0x3e, 0x00, 0xff, 0x5c, 0x0a]).subarray(0, 6),
      Buffer.from(' user=eve cmd=get\n'),
    ]);
    const [c] = parseClientList(raw).clients;
    expect(c?.name).toBe('<b>\\x00\\xff\\\\');
    expect(c?.user).toBe('eve');
    expect(c?.cmd).toBe('get');
  });

  it('keeps a name with a space (a server that allowed one) whole, and the first of a repeated key', () => {
    const [c] = parseClientList('id=8 addr=1.2.3.4:9 name=a b id=99 user=u').clients;
    expect([c?.id, c?.name, c?.user]).toEqual(['8', 'a b', 'u']);
  });

  it('cuts a long name with an ellipsis', () => {
    const [c] = parseClientList(`id=1 addr=a:1 name=${'x'.repeat(5000)}`).clients;
    expect(c?.name.length).toBe(MAX_FIELD_CHARS + 1);
    expect(c?.name.endsWith('…')).toBe(true);
    expect(fieldText('plain<tag>')).toBe('plain<tag>');
  });
});

describe('otherNamed', () => {
  const list = [
    'id=3 addr=10.0.0.1:5001 name=cacheboard:trial:abc age=1 cmd=set',
    'id=4 addr=10.0.0.2:5002 name=cacheboard:trial:own age=1 cmd=get',
    'id=5 addr=10.0.0.3:5003 name= age=1 cmd=client|list',
  ].join('\n');

  it("finds another job's connection by its name prefix, never our own", () => {
    expect(otherNamed(list, 'cacheboard:trial:', 'cacheboard:trial:own')).toEqual({ id: 'abc', addr: '10.0.0.1:5001' });
    expect(otherNamed(Buffer.from(list), 'cacheboard:trial:', 'cacheboard:trial:abc')).toEqual({ id: 'own', addr: '10.0.0.2:5002' });
    expect(otherNamed(list, 'cacheboard:bulk:', 'x')).toBeUndefined();
  });
});
