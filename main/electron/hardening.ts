import { app, session } from 'electron';
import { isAppUrl } from './rendererFiles';
import { originOf } from './senderCheck';

/**
 * Everything a page in our windows could use to get out: navigation, popups,
 * <webview>, permission prompts. Call once, after 'ready' and before the
 * first window. The page only ever needs app://cacheboard and the IPC bridge.
 */
export function hardenApp(log: (msg: string) => void = (m) => console.warn(m)): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event) => {
      if (isAppUrl(event.url)) return;
      event.preventDefault();
      log(`cacheboard: blocked navigation to ${originOf(event.url)}`);
    });
    contents.on('will-frame-navigate', (event) => {
      if (event.isMainFrame || isAppUrl(event.url)) return; // the main frame is 'will-navigate's job
      event.preventDefault();
      log(`cacheboard: blocked subframe navigation to ${originOf(event.url)}`);
    });
    contents.on('will-redirect', (event) => {
      if (!isAppUrl(event.url)) event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      log(`cacheboard: blocked window.open of ${originOf(url)}`);
      return { action: 'deny' };
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  ses.setDevicePermissionHandler(() => false);
  ses.setDisplayMediaRequestHandler((_request, callback) => callback(null));
}
