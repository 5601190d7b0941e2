import type { BrowserWindow, IpcMain, IpcMainEvent, WebContents } from 'electron';
import type { ServerMessage } from '../../app/wire';
import type { Session } from '../rpc/session';
import type { Wire } from '../rpc/wire';
import type { Runtime } from '../runtime';
import { IPC_CHANNEL } from './channel';
import { senderProblem } from './senderCheck';

export interface IpcAdapter {
  /** Serve this window's page; the runtime sees one Wire per loaded document. */
  attachWindow(win: Pick<BrowserWindow, 'webContents'>): void;
  /** Stop listening and close every wire (before runtime.close()). */
  close(): void;
}

/** One loaded document: a fresh Wire, so a reload ends the old page's calls and streams. */
interface Page {
  readonly listeners: Set<(raw: unknown) => void>;
  readonly closeCbs: Set<() => void>;
  detach: () => void;
  closed: boolean;
}

interface Tracked {
  readonly wc: WebContents;
  page: Page | null;
}

export interface IpcAdapterOptions {
  runtime: Pick<Runtime, 'attach'>;
  session: Session;
  /** Electron's ipcMain; passed in so the adapter is tested without Electron. */
  ipcMain: Pick<IpcMain, 'on' | 'off'>;
  log?: (msg: string) => void;
}

/**
 * ipcMain <-> Runtime.attach. IPC has no send buffer we can see, so the Wire
 * has no congested(); the dispatcher's bounded queues still cap memory.
 */
export function createIpcAdapter({ runtime, session, ipcMain, log = (m) => console.warn(m) }: IpcAdapterOptions): IpcAdapter {
  const windows = new Map<number, Tracked>();

  const openPage = (wc: WebContents): Page => {
    const page: Page = { listeners: new Set(), closeCbs: new Set(), detach: () => {}, closed: false };
    const wire: Wire = {
      send(m: ServerMessage) {
        if (page.closed || wc.isDestroyed()) return;
        try {
          wc.send(IPC_CHANNEL, m);
        } catch (e) {
          log(`cacheboard ipc: could not send a ${m.t} message: ${String(e)}`);
        }
      },
      onMessage(cb) {
        page.listeners.add(cb);
        return () => page.listeners.delete(cb);
      },
      onClose(cb) {
        page.closeCbs.add(cb);
        return () => page.closeCbs.delete(cb);
      },
    };
    page.detach = runtime.attach(wire, session);
    return page;
  };

  const closePage = (t: Tracked): void => {
    const page = t.page;
    if (page === null) return;
    t.page = null;
    page.closed = true;
    for (const cb of [...page.closeCbs]) cb();
    page.detach(); // idempotent in the dispatcher; covers a runtime that did not register onClose
  };

  let ignored = 0;
  const ignore = (why: string): void => {
    ignored += 1;
    // Never the message itself: it may hold connection details. Throttled so a hostile page cannot flood the log.
    if (ignored <= 10 || ignored % 1000 === 0) log(`cacheboard ipc: ignored a message (${why}); ${ignored} so far`);
  };

  const onMessage = (event: IpcMainEvent, raw: unknown): void => {
    const t = windows.get(event.sender.id);
    if (t === undefined || t.wc !== event.sender) return ignore('not from a Cacheboard window');
    const problem = senderProblem(event.senderFrame, t.wc.mainFrame);
    if (problem !== null) return ignore(problem);
    t.page ??= openPage(t.wc);
    for (const cb of [...t.page.listeners]) cb(raw);
  };

  ipcMain.on(IPC_CHANNEL, onMessage);

  return {
    attachWindow(win) {
      const wc = win.webContents;
      const id = wc.id; // read now: properties of a destroyed WebContents throw
      if (windows.has(id)) return;
      const t: Tracked = { wc, page: null };
      windows.set(id, t);
      // A cross-document navigation or reload replaces the page; its RpcClient is gone with it.
      // Messages from the new document queue behind the commit on the same IPC channel,
      // so they reach us after 'did-navigate' and open a fresh Wire.
      wc.on('did-navigate', () => closePage(t));
      wc.on('render-process-gone', () => closePage(t));
      wc.once('destroyed', () => {
        closePage(t);
        windows.delete(id);
      });
    },
    close() {
      ipcMain.off(IPC_CHANNEL, onMessage);
      for (const t of windows.values()) closePage(t);
      windows.clear();
    },
  };
}
