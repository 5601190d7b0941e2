import { EventEmitter } from 'node:events';
import type { BrowserWindow, IpcMain } from 'electron';
import { afterEach, describe, expect, it } from 'vitest';
import { RpcClient } from '../../app/rpcClient';
import type { ClientMessage, ServerMessage } from '../../app/wire';
import { Dispatcher } from '../rpc/dispatcher';
import type { Handlers } from '../rpc/handlers';
import type { Session } from '../rpc/session';
import { IPC_CHANNEL } from './channel';
import { createIpcAdapter, type IpcAdapter } from './ipc';

/** Enough of WebFrameMain for the sender check. */
interface Frame {
  url: string;
  parent: Frame | null;
  processId: number;
  routingId: number;
}

let nextId = 1;

/** A window's webContents: main frame, destroy(), and send() delivering to the loaded page. */
class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  mainFrame: Frame = { url: 'about:blank', parent: null, processId: this.id, routingId: 1 };
  private destroyed = false;
  deliver: ((m: ServerMessage) => void) | null = null;

  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, m: ServerMessage): void {
    if (channel !== IPC_CHANNEL) throw new Error(`unexpected channel ${channel}`);
    const copy = structuredClone(m); // IPC copies, it never shares
    queueMicrotask(() => this.deliver?.(copy));
  }
  destroy(): void {
    this.destroyed = true;
    this.emit('destroyed');
  }
}

const ipcMain = new EventEmitter();
const logs: string[] = [];
const session: Session = { role: 'ops', user: 'tester' };
const stateCleanups = { count: 0 };

const handlers = {
  health: () => ({ status: 'ok', version: '1.2.3' }),
  'connections.state': () => () => {
    stateCleanups.count += 1;
  },
} as unknown as Handlers;

function makeAdapter(): { adapter: IpcAdapter; attached: () => number } {
  const dispatcher = new Dispatcher(handlers);
  let attached = 0;
  const adapter = createIpcAdapter({
    runtime: {
      attach: (wire, s) => {
        attached += 1;
        return dispatcher.attach(wire, s);
      },
    },
    session,
    ipcMain: ipcMain as unknown as Pick<IpcMain, 'on' | 'off'>,
    log: (m) => logs.push(m),
  });
  return { adapter, attached: () => attached };
}

/** Sends as the preload would, from `frame` of `wc`, on a later tick like real IPC. */
function sendFrom(wc: FakeWebContents, frame: Frame | null, m: ClientMessage): void {
  const copy = structuredClone(m);
  queueMicrotask(() => ipcMain.emit(IPC_CHANNEL, { sender: wc, senderFrame: frame }, copy));
}

/** Commits a navigation of the main frame and returns the new page's RpcClient. */
function loadPage(wc: FakeWebContents, url = 'app://cacheboard/index.html'): RpcClient {
  wc.mainFrame = { url, parent: null, processId: wc.id, routingId: 1 };
  wc.emit('did-navigate');
  const frame = wc.mainFrame;
  const client = new RpcClient((m) => sendFrom(wc, frame, m));
  wc.deliver = (m) => client.receive(m);
  return client;
}

const asWindow = (wc: FakeWebContents) => ({ webContents: wc }) as unknown as Pick<BrowserWindow, 'webContents'>;
const settle = () => new Promise((r) => setTimeout(r, 20));

let current: IpcAdapter | null = null;
afterEach(() => {
  current?.close();
  current = null;
  logs.length = 0;
  stateCleanups.count = 0;
});

describe('Electron IPC adapter', () => {
  it('carries a call from our page to the dispatcher and the result back', async () => {
    const { adapter } = makeAdapter();
    current = adapter;
    const wc = new FakeWebContents();
    adapter.attachWindow(asWindow(wc));
    const page = loadPage(wc);
    await expect(page.invoke('health', {})).resolves.toEqual({ status: 'ok', version: '1.2.3' });
    expect(logs).toEqual([]);
  });

  it('ignores messages from a subframe, a foreign page and an unknown window, logging no contents', async () => {
    const { adapter, attached } = makeAdapter();
    current = adapter;
    const wc = new FakeWebContents();
    adapter.attachWindow(asWindow(wc));
    loadPage(wc);
    const secretCall: ClientMessage = { t: 'call', id: 'x1', name: 'connections.add', input: { password: 'hunter2' } };

    const sub: Frame = { url: 'app://cacheboard/index.html', parent: wc.mainFrame, processId: wc.id, routingId: 9 };
    sendFrom(wc, sub, secretCall);
    wc.mainFrame.url = 'https://evil.example/page?token=abc';
    sendFrom(wc, wc.mainFrame, secretCall);
    const stranger = new FakeWebContents();
    stranger.mainFrame.url = 'app://cacheboard/index.html';
    sendFrom(stranger, stranger.mainFrame, secretCall);
    sendFrom(wc, null, secretCall);
    await settle();

    expect(attached()).toBe(0);
    expect(logs).toHaveLength(4);
    expect(logs.join('\n')).toMatch(/subframe/);
    expect(logs.join('\n')).toMatch(/https:\/\/evil\.example/);
    expect(logs.join('\n')).toMatch(/not from a Cacheboard window/);
    for (const line of logs) {
      expect(line).not.toMatch(/hunter2|connections\.add|token=abc|x1/);
    }
  });

  it("a reload ends the old page's streams and the new page gets a fresh wire", async () => {
    const { adapter, attached } = makeAdapter();
    current = adapter;
    const wc = new FakeWebContents();
    adapter.attachWindow(asWindow(wc));
    const first = loadPage(wc);
    first.subscribe('connections.state', {}, { onEvents: () => {} });
    await settle();
    expect(attached()).toBe(1);
    expect(stateCleanups.count).toBe(0);

    const second = loadPage(wc);
    expect(stateCleanups.count).toBe(1);
    await expect(second.invoke('health', {})).resolves.toMatchObject({ status: 'ok' });
    expect(attached()).toBe(2);
  });

  it('a destroyed window closes its wire and its later messages are ignored', async () => {
    const { adapter, attached } = makeAdapter();
    current = adapter;
    const wc = new FakeWebContents();
    adapter.attachWindow(asWindow(wc));
    const page = loadPage(wc);
    page.subscribe('connections.state', {}, { onEvents: () => {} });
    await settle();
    wc.destroy();
    expect(stateCleanups.count).toBe(1);

    sendFrom(wc, wc.mainFrame, { t: 'call', id: 'late', name: 'health', input: {} });
    await settle();
    expect(attached()).toBe(1);
    expect(logs.join('\n')).toMatch(/not from a Cacheboard window/);
  });

  it('close() ends every page and stops listening on the channel', async () => {
    const { adapter } = makeAdapter();
    const wc = new FakeWebContents();
    adapter.attachWindow(asWindow(wc));
    loadPage(wc).subscribe('connections.state', {}, { onEvents: () => {} });
    await settle();
    adapter.close();
    expect(stateCleanups.count).toBe(1);
    expect(ipcMain.listenerCount(IPC_CHANNEL)).toBe(0);
  });
});
