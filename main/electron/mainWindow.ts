import { BrowserWindow } from 'electron';
import { APP_ENTRY_URL } from './rendererFiles';
import { LOCKED_WEB_PREFERENCES } from './webPreferences';

/** The one window. Every web preference that widens the renderer's reach is pinned off explicitly. */
export function createMainWindow(preloadPath: string, log: (msg: string) => void = (m) => console.error(m)): BrowserWindow {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    minWidth: 900,
    minHeight: 600,
    title: 'Cacheboard',
    show: false,
    webPreferences: { preload: preloadPath, ...LOCKED_WEB_PREFERENCES },
  });
  win.once('ready-to-show', () => win.show());
  win.loadURL(APP_ENTRY_URL).catch((e: unknown) => log(`cacheboard: could not load the UI: ${String(e)}`));
  return win;
}
