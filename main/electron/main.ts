import os from 'node:os';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, safeStorage } from 'electron';
import type { Session } from '../rpc/session';
import { createRuntime, type Runtime } from '../runtime';
import { hardenApp } from './hardening';
import { createFilePicker, createSavePicker } from './filePicker';
import { createIpcAdapter, type IpcAdapter } from './ipc';
import { createMainWindow } from './mainWindow';
import { registerAppScheme, serveRenderer } from './protocol';
import { createSafeStorageBox } from './safeStorageBox';

const SHUTDOWN_TIMEOUT_MS = 10_000;

// Before anything reads userData: tests use a fresh dir each, and the single-instance lock is per dir.
const dataDirOverride = process.env.CACHEBOARD_DATA_DIR;
if (dataDirOverride) app.setPath('userData', path.resolve(dataDirOverride));

registerAppScheme(); // must precede 'ready'
app.enableSandbox();

let runtime: Runtime | null = null;
let ipc: IpcAdapter | null = null;
let starting: Promise<void> | null = null;
let shutdown: Promise<void> | null = null;
let shutdownDone = false;

/** The desktop app is the ops engineer's own tool: the local user gets the ops role. */
function desktopSession(): Session {
  try {
    return { role: 'ops', user: os.userInfo().username };
  } catch {
    return { role: 'ops' }; // no passwd entry (some containers)
  }
}

function openWindow(): void {
  if (ipc === null) return;
  const win = createMainWindow(path.join(app.getAppPath(), 'dist', 'main', 'preload.cjs'));
  ipc.attachWindow(win);
}

const focused = () => BrowserWindow.getFocusedWindow() ?? BrowserWindow.getAllWindows()[0] ?? null;

async function start(): Promise<void> {
  hardenApp();
  // app.getAppPath() is the repo root in development and app.asar when packaged.
  serveRenderer(path.join(app.getAppPath(), 'dist', 'renderer'));
  const redisUrl = process.env.REDIS_URL || undefined;
  runtime = await createRuntime({
    dataDir: app.getPath('userData'),
    secretBox: createSafeStorageBox(safeStorage), // after 'ready': Linux only knows its keyring then
    redisUrl,
    embedded: redisUrl === undefined,
    pickFile: createFilePicker(dialog, focused),
    pickSaveFile: createSavePicker(dialog, focused),
  });
  ipc = createIpcAdapter({ runtime, session: desktopSession(), ipcMain });
  openWindow();
}

async function stop(): Promise<void> {
  await starting?.catch(() => {}); // a runtime still being created must be closed too
  ipc?.close(); // pages' streams end before the connections under them go
  ipc = null;
  const r = runtime;
  runtime = null;
  if (r === null) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.error(`cacheboard: runtime did not close within ${SHUTDOWN_TIMEOUT_MS} ms; quitting anyway`);
      resolve();
    }, SHUTDOWN_TIMEOUT_MS);
  });
  try {
    await Promise.race([r.close(), timeout]);
  } catch (e) {
    console.error(`cacheboard: error while closing: ${String(e)}`);
  } finally {
    clearTimeout(timer);
  }
}

if (!app.requestSingleInstanceLock()) {
  // Another Cacheboard owns this data dir; it focuses its window on 'second-instance'.
  app.quit();
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win === undefined) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow();
  });

  // will-quit comes after the windows are gone; hold the quit until Redis connections
  // and any embedded redis-server are closed, then quit for real.
  app.on('will-quit', (event) => {
    if (shutdownDone) return;
    event.preventDefault();
    shutdown ??= stop().finally(() => {
      shutdownDone = true;
      app.quit();
    });
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

  starting = app.whenReady().then(start);
  starting.catch((e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    console.error(`cacheboard: startup failed: ${e instanceof Error ? (e.stack ?? message) : message}`);
    dialog.showErrorBox('Cacheboard could not start', message);
    shutdown ??= stop();
    void shutdown.finally(() => app.exit(1));
  });
}
