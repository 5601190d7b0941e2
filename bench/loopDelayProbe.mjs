// Preloaded into `cacheboard serve` by the soak bench (NODE_OPTIONS=--import): the server's own
// event-loop delay, measured inside it by Node's histogram, without adding anything to the
// product or its API. Every CB_SOAK_LOOP_MS it appends one JSON line to CB_SOAK_LOOP_FILE and
// starts a new window, so each line is the delay seen in that window only.
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const file = process.env.CB_SOAK_LOOP_FILE;
const every = Number(process.env.CB_SOAK_LOOP_MS ?? 10_000);
if (file) {
  // Children of serve inherit NODE_OPTIONS; only the server itself reports.
  delete process.env.NODE_OPTIONS;
  const RESOLUTION_MS = 10;
  const h = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  h.enable();
  // The histogram holds the time between its 10 ms samples: the delay is what exceeds 10 ms.
  const ms = (ns) => Math.max(0, Math.round(ns / 1e5 - RESOLUTION_MS * 10) / 10);
  setInterval(() => {
    appendFileSync(file, `${JSON.stringify({ at: Date.now(), max_ms: ms(h.max), p99_ms: ms(h.percentile(99)) })}\n`);
    h.reset();
  }, every).unref();
}
