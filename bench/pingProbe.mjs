// An independent PING probe for the benches: its own process (its own event loop, scheduled
// like any other client on the box), one PING at a time over a raw socket with no client library,
// a pause of GAP_MS between them. When its stdin closes it prints every sample as JSON,
// [[wall-clock ms, round trip ms], ...], so the bench can cut idle and busy windows by time.
// Usage: node bench/pingProbe.mjs <host> <port> [gapMs=1]
import { connect } from 'node:net';

const [host = '127.0.0.1', port = '6379', gapArg = '1'] = process.argv.slice(2);
const GAP_MS = Number(gapArg);
const socket = connect({ host, port: Number(port) });
socket.setNoDelay(true);
socket.on('error', (e) => {
  process.stderr.write(`ping probe: ${e.message}\n`);
  process.exit(1);
});
await new Promise((r) => socket.once('connect', r));

const samples = [];
let running = true;
let answered = () => undefined;
socket.on('data', () => answered());
process.stdin.on('data', () => undefined);
process.stdin.on('end', () => (running = false));
process.stdout.write('ready\n');
const wallMs = () => performance.timeOrigin + performance.now();
while (running) {
  const t0 = performance.now();
  const pong = new Promise((r) => (answered = r));
  socket.write('PING\r\n');
  await pong;
  samples.push([Math.round(wallMs() * 100) / 100, Math.round((performance.now() - t0) * 1000) / 1000]);
  await new Promise((r) => setTimeout(r, GAP_MS));
}
socket.end();
process.stdout.write(`${JSON.stringify(samples)}\n`);
