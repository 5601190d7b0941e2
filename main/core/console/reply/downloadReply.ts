import { DOWNLOAD_CHUNK_BYTES, DOWNLOAD_MAX_BACKLOG, roomIn, type ChunkSink } from '../../keys/index';
import type { ReplyFiles } from './replyFiles';

/**
 * A cut reply's whole text, streamed from its download file in the same chunks and with the
 * same pacing as a string value's download (keys.download): a chunk is read only once fewer
 * than DOWNLOAD_MAX_BACKLOG wait for delivery, so a slow page slows the reads and never
 * loses a chunk. NOT_FOUND (from ReplyFiles) for an unknown, expired or another user's file.
 */
export async function downloadReply(files: ReplyFiles, id: string, owner: string, sink: ChunkSink, pollMs = 5): Promise<void> {
  const file = await files.open(id, owner);
  try {
    const total = file.total;
    let offset = 0;
    do {
      if (!(await roomIn(sink, DOWNLOAD_MAX_BACKLOG, pollMs))) return;
      const bytes = await file.read(offset, Math.min(DOWNLOAD_CHUNK_BYTES, total - offset));
      if (sink.signal.aborted) return;
      const done = offset + bytes.length >= total || bytes.length === 0;
      sink.push({ chunk: bytes.toString('base64'), offset, total, done });
      offset += bytes.length;
      if (done) return;
    } while (offset < total);
  } finally {
    file.close();
  }
}
