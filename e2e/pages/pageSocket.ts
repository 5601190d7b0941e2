import type { Page } from '@playwright/test';
import type { ErrorInfo } from '../../app/errors';

/** A call's reply as the wire carries it (app/wire.ts `result`). */
export type CallReply = { ok: true; output: unknown } | { ok: false; error: ErrorInfo };

/**
 * Sends one contract call from inside the page, over a WebSocket of its own to the page's
 * server (`/api/ws`, as renderer/bridge/wsBridge.ts's wsUrl builds it), and returns the reply.
 * The browser sends the page's session cookie and origin with the upgrade, so the server sees
 * exactly the signed-in user the page is: what a user who skips the UI (devtools, a script)
 * can send. The renderer's own client is not reachable from outside its module graph.
 */
export async function callFromPage(page: Page, name: string, input: unknown, timeoutMs = 10_000): Promise<CallReply> {
  // The function runs in the page: it can use nothing from this module's scope.
  return page.evaluate(
    ({ name, input, timeoutMs }) =>
      new Promise<CallReply>((resolve, reject) => {
        const ws = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/ws`);
        const id = `e2e-${Math.random().toString(36).slice(2)}`;
        const timer = setTimeout(() => {
          ws.close();
          reject(new Error(`no reply to ${name} within ${timeoutMs} ms`));
        }, timeoutMs);
        ws.onopen = () => ws.send(JSON.stringify({ t: 'call', id, name, input }));
        ws.onmessage = (e: MessageEvent<string>) => {
          const m = JSON.parse(e.data) as { t: string; id?: string } & CallReply;
          if (m.t !== 'result' || m.id !== id) return;
          clearTimeout(timer);
          ws.close();
          resolve(m.ok ? { ok: true, output: m.output } : { ok: false, error: m.error });
        };
        ws.onclose = (e) => {
          clearTimeout(timer);
          reject(new Error(`the socket closed before the reply (${e.code} ${e.reason})`));
        };
      }),
    { name, input, timeoutMs },
  );
}
