import { parentPort } from 'node:worker_threads';
import { decodeBytes, type DecodeJob } from './decodeBytes';

/**
 * The decode worker: one job at a time, off the server's event loop, so a value that is slow
 * to decompress or decode stalls only this thread, which the runner terminates at its time
 * limit (decodeRunner.ts). A separate entry point of the build (scripts/build-main.js).
 */
export interface WorkerRequest {
  id: number;
  job: DecodeJob;
}
export type WorkerReply = { ready: true } | { id: number; outcome: ReturnType<typeof decodeBytes> } | { id: number; error: string };

const port = parentPort;
if (port !== null) {
  port.on('message', (req: WorkerRequest) => {
    let reply: WorkerReply;
    try {
      reply = { id: req.id, outcome: decodeBytes(req.job) };
    } catch (e) {
      reply = { id: req.id, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  });
  // Modules are loaded: the runner starts a job's clock only from here on.
  port.postMessage({ ready: true } satisfies WorkerReply);
}
