/**
 * `npx tsx scripts/measure-reply-memory.ts [fields]`: peak RSS and time of reading one
 * HGETALL of a 2M-field hash (fields and values 10 bytes), and one GET of a 100 MB string,
 * through the console's streaming readReply (a bounded tree, and the whole reply written to
 * a download file, formatted or raw), against ioredis building the HGETALL whole
 * (redis-parser), and Node doing nothing. Each in a child process of its own, so each peak is
 * its own (VmHWM, Linux). A private redis-server on a free port; nothing else is touched.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { readReply } from '../main/core/console/reply/readReply';
import { ReplyFiles } from '../main/core/console/reply/replyFiles';
import { encodeCommand } from '../main/core/resp/encodeCommand';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';

const FILL = `for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do
  redis.call('HSET', KEYS[1], string.format('field%05d', i), string.format('value%05d', i))
end`;

type Mode = 'idle' | 'hgetall' | 'hgetall-raw' | 'ioredis-hgetall' | 'get-100mb' | 'get-100mb-raw';
const MODES: Mode[] = ['idle', 'hgetall', 'hgetall-raw', 'ioredis-hgetall', 'get-100mb', 'get-100mb-raw'];

async function child(mode: Mode, port: number): Promise<void> {
  const startup = process.cpuUsage();
  const startupCpuMs = (startup.user + startup.system) / 1000;
  const started = performance.now();
  let note = '';
  if (mode === 'ioredis-hgetall') {
    const redis = new Redis({ port, lazyConnect: true });
    await redis.connect();
    const all = await redis.hgetall('h');
    note = `${Object.keys(all).length} fields`;
    redis.disconnect();
  } else if (mode !== 'idle') {
    const dir = mkdtempSync(join(tmpdir(), 'cacheboard-measure-'));
    const files = new ReplyFiles(join(dir, 'replies'));
    const socket = connect({ host: '127.0.0.1', port });
    await new Promise((r) => socket.once('connect', r));
    socket.write(encodeCommand(['HELLO', '3']));
    await readReply(socket, { raw: false, files, owner: 'me' });
    socket.write(encodeCommand(mode.startsWith('hgetall') ? ['HGETALL', 'h'] : ['GET', 'big']));
    const got = await readReply(socket, { raw: mode.endsWith('-raw'), files, owner: 'me' });
    note = `${got.cut?.totalElements} elements, ${(got.bytes / 1e6).toFixed(1)} MB of RESP, file ${((got.cut?.fileBytes ?? 0) / 1e6).toFixed(1)} MB`;
    socket.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  const ms = performance.now() - started;
  // VmHWM, this process image's peak: getrusage's maxRSS would start from the parent's at fork.
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  const peak = Number(hwm?.[1] ?? Number.NaN) / 1024;
  // CPU time as well: on a busy machine the wall time says more about the neighbours.
  const cpu = process.cpuUsage();
  const cpuMs = Math.round((cpu.user + cpu.system) / 1000 - startupCpuMs);
  console.log(JSON.stringify({ mode, ms: Math.round(ms), cpuMs, peakRssMb: Math.round(peak), note }));
}

async function main(): Promise<void> {
  const fields = Number(process.argv[2] ?? 2_000_000);
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  try {
    const admin = new Redis({ port: server.port });
    for (let from = 1; from <= fields; from += 200_000) {
      await admin.eval(FILL, 1, 'h', from, Math.min(fields, from + 199_999));
    }
    await admin.set('big', Buffer.alloc(100 * 1024 * 1024, 'text\n\x00\xff'));
    console.log(`hash h: ${await admin.hlen('h')} fields; string big: ${await admin.strlen('big')} bytes`);
    admin.disconnect();
    for (const mode of MODES) {
      const r = spawnSync(process.execPath, [...process.execArgv, process.argv[1] as string, 'child', mode, String(server.port)], {
        encoding: 'utf8',
      });
      process.stdout.write(r.stdout + r.stderr);
    }
  } finally {
    await server.stop();
  }
}

if (process.argv[2] === 'child') {
  await child(process.argv[3] as Mode, Number(process.argv[4]));
} else {
  await main();
}
