import { protocol } from 'electron';
import { APP_SCHEME, rendererResponse } from './rendererFiles';

/**
 * Must run before app 'ready'. `standard` gives app://cacheboard a real origin
 * (relative URLs, storage, same-origin checks); `secure` makes it a secure
 * context; `supportFetchAPI` lets the page fetch its own assets. No
 * `corsEnabled` and no `bypassCSP`: other origins cannot read it and our CSP applies.
 */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves `rendererDir` (dist/renderer, possibly inside app.asar, which Electron's fs reads) on app://cacheboard/. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => rendererResponse(rendererDir, request));
}
