import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ReplyCut } from '../../../../app/schemas/console';
import type { RedisProcess } from '../../../../testing/redis';
import { encodeCommand } from '../../resp/encodeCommand';
import { readReply, type ReadReply } from './readReply';
import { ReplyFiles } from './replyFiles';

/** Test helpers for the console's reply reading: a raw socket to a test server, and redis-cli beside it. */

export const OWNER = 'user-a';

export function tempFiles(): ReplyFiles {
  return new ReplyFiles(join(mkdtempSync(join(tmpdir(), 'cacheboard-replies-')), 'replies'));
}

export async function openSocket(proc: RedisProcess): Promise<Socket> {
  const socket = connect({ host: proc.host, port: proc.port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** Send one command and read its reply, as the console does. */
export function run(socket: Socket, files: ReplyFiles, args: string[], raw = false): Promise<ReadReply> {
  socket.write(encodeCommand(args));
  return readReply(socket, { raw, files, owner: OWNER });
}

/** What redis-cli prints for the command: `--no-raw` (a terminal's format) or `--raw`. */
export function redisCli(proc: RedisProcess, args: string[], opts: { raw: boolean; resp3: boolean }): Buffer {
  const flags = ['-h', proc.host, '-p', String(proc.port), opts.raw ? '--raw' : '--no-raw', ...(opts.resp3 ? ['-3'] : [])];
  const r = spawnSync('redis-cli', [...flags, ...args], { maxBuffer: 1024 ** 3 });
  if (r.status !== 0) throw new Error(`redis-cli ${args.join(' ')} failed: ${r.stderr.toString()}`);
  return r.stdout;
}

/** The whole download file of a cut reply. */
export async function download(files: ReplyFiles, cut: ReplyCut | undefined): Promise<Buffer> {
  if (cut === undefined) throw new Error('the reply was not cut');
  const file = await files.open(cut.downloadId, OWNER);
  try {
    return await file.read(0, file.total);
  } finally {
    file.close();
  }
}
