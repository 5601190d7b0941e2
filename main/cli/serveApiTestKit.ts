import { WebSocket } from 'ws';
import type { ErrorInfo } from '../../app/errors';
import type { ServerMessage } from '../../app/wire';
import { eventually } from '../../testing/redis';

export type CallResult = { ok: true; output: unknown } | { ok: false; error: ErrorInfo };

/**
 * A raw WebSocket client of a real `cacheboard serve`: it sends the frames a page would and
 * those a page never would (an analyst's ops call, a hand-made input), and reads the replies.
 * `cookie`: the session cookie of a signed-in user; none in local mode.
 */
export async function apiClient(port: number, cookie?: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/api/ws`, {
    headers: { origin: `http://127.0.0.1:${port}`, ...(cookie === undefined ? {} : { cookie }) },
  });
  const got: ServerMessage[] = [];
  const raw: string[] = [];
  let closed: { code: number; reason: string } | undefined;
  ws.on('message', (d) => {
    raw.push(String(d));
    got.push(JSON.parse(String(d)) as ServerMessage);
  });
  ws.on('close', (code, reason) => (closed = { code, reason: reason.toString() }));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let n = 0;
  /** The call's result, ok or refused; throws only when no answer came (e.g. the socket was closed). */
  const result = async (name: string, input: unknown, timeoutMs = 10_000): Promise<CallResult> => {
    const id = `c${++n}`;
    ws.send(JSON.stringify({ t: 'call', id, name, input }));
    let m: ServerMessage | undefined;
    await eventually(() => (m = got.find((x) => x.t === 'result' && x.id === id)) !== undefined || closed !== undefined, timeoutMs);
    if (m === undefined || m.t !== 'result') throw new Error(`no answer to ${name}${closed ? ` (socket closed ${closed.code} ${closed.reason})` : ''}`);
    return m.ok ? { ok: true, output: m.output } : { ok: false, error: m.error };
  };
  /** The call's output; a refusal throws with its code and message. */
  const call = async (name: string, input: unknown): Promise<unknown> => {
    const r = await result(name, input);
    if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`);
    return r.output;
  };
  const subscribe = (name: string, input: unknown) => {
    const id = `s${++n}`;
    ws.send(JSON.stringify({ t: 'sub', id, name, input }));
    return () => got.flatMap((x) => (x.t === 'batch' && x.id === id ? x.events : []));
  };
  /** Every frame received so far, as sent (to check that no secret was ever in one). */
  const frames = () => raw.join('\n');
  return { ws, call, result, subscribe, frames, closed: () => closed, close: () => ws.close() };
}

/** Signs in over HTTP as a page does; returns the session cookie ("name=value"). */
export async function signIn(port: number, username: string, password: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
    body: JSON.stringify({ username, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in as ${username}: HTTP ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  if (cookie === undefined || cookie === '') throw new Error('sign-in set no cookie');
  return cookie;
}
