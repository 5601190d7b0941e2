import type { Page } from '@playwright/test';

/** What a page did that it must never do with untrusted data, and everything it received. */
export interface Watched {
  /** `securitypolicyviolation` events: directive and blocked URI. */
  cspViolations: string[];
  /** Writes to window.__pwned, the payloads' tell-tale. */
  pwned: string[];
  /** alert/confirm/prompt messages. */
  dialogs: string[];
  /** Every WebSocket frame the page received or sent, as text. */
  frames: string[];
  /** Every HTTP response body the page got, as text. */
  bodies: string[];
}

/**
 * Installs the watchers before the page's first script runs and reports through
 * bindings, so nothing is lost when the page reloads (signing in, a hash route).
 */
export class PageWatch {
  readonly seen: Watched = { cspViolations: [], pwned: [], dialogs: [], frames: [], bodies: [] };
  private readonly pending: Promise<unknown>[] = [];

  constructor(private readonly page: Page) {}

  async install(): Promise<void> {
    const { seen, page } = this;
    await page.exposeFunction('__cbCsp', (v: string) => void seen.cspViolations.push(v));
    await page.exposeFunction('__cbPwned', (v: string) => void seen.pwned.push(v));
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, (v: string) => void> & { __cbProtoBaseline: string };
      document.addEventListener('securitypolicyviolation', (e) => w.__cbCsp?.(`${e.violatedDirective} ${e.blockedURI}`));
      // A payload that runs sets window.__pwned: trap the write instead of hoping to read it in time.
      Object.defineProperty(window, '__pwned', { configurable: false, get: () => undefined, set: (v: unknown) => w.__cbPwned?.(String(v)) });
      w.__cbProtoBaseline = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
    });
    page.on('dialog', (d) => {
      seen.dialogs.push(d.message());
      void d.dismiss();
    });
    page.on('websocket', (ws) => {
      const add = (f: { payload: string | Buffer }) => void seen.frames.push(f.payload.toString());
      ws.on('framereceived', add);
      ws.on('framesent', add);
    });
    page.on('response', (r) => {
      // Redirects and aborted requests have no body: nothing to read there.
      this.pending.push(
        r.body().then(
          (b) => seen.bodies.push(b.toString('utf8')),
          () => undefined,
        ),
      );
    });
  }

  /** Waits for the bodies still being read. */
  async settle(): Promise<Watched> {
    await Promise.all(this.pending.splice(0));
    return this.seen;
  }

  /** Whether Object.prototype changed since the page loaded, and whether `{}` inherits `polluted`. */
  prototypeState(): Promise<{ polluted: unknown; newKeys: string[] }> {
    return this.page.evaluate(() => {
      const baseline = (window as unknown as { __cbProtoBaseline: string }).__cbProtoBaseline.split(',');
      const now = Object.getOwnPropertyNames(Object.prototype);
      return { polluted: ({} as Record<string, unknown>).polluted, newKeys: now.filter((k) => !baseline.includes(k)) };
    });
  }
}
