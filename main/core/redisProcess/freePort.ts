import { createServer } from 'node:net';

/**
 * A port that was free a moment ago. Another process may take it before we
 * bind it again, so callers retry on "Address already in use".
 */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => (port > 0 ? resolve(port) : reject(new Error('could not read the bound port'))));
    });
  });
}
