import type { Socket } from 'node:net';

/** An Error carrying a Node-style code, so redisErrors maps it like a socket error. */
function codedError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Read `count` single-line replies (+OK, -ERR …, :n): what AUTH, CLIENT SETNAME,
 * SELECT and CLIENT ID answer. Rejects on socket error, early close or timeout;
 * an error line that came before an early close is the better cause (Redis
 * writes "-ERR max number of clients reached" or "-DENIED …" and then closes).
 */
export function readHandshake(socket: Socket, count: number, timeoutMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    let lastError: unknown;
    const lines = (): string[] => text.split('\r\n').slice(0, -1);
    const cleanup = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      text += chunk.toString('utf8');
      const got = lines();
      if (got.length < count) return;
      cleanup();
      // Nothing else was sent, so nothing else may come; more would desync the pipe.
      if (got.length > count || !text.endsWith('\r\n')) reject(new Error(`unexpected handshake reply: ${JSON.stringify(text.slice(0, 200))}`));
      else resolve(got);
    };
    const onError = (err: unknown): void => {
      lastError = err;
    };
    const onClose = (): void => {
      cleanup();
      const errorLine = lines().find((l) => l.startsWith('-'));
      if (errorLine !== undefined) reject(new Error(errorLine.slice(1)));
      else reject(lastError ?? codedError('ECONNRESET', 'connection closed during the handshake'));
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(codedError('ETIMEDOUT', `no handshake reply within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
  });
}
