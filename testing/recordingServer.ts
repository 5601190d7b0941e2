import { loopbackServer, type SilentServer } from './silentServer';

export interface RecordingServer extends SilentServer {
  /** Every byte any client sent so far, as latin1 text (RESP commands read as they were typed). */
  received(): string;
}

/**
 * A host that listens and records what clients send, then hangs up: the attacker's machine in
 * tests of where secrets go (a profile pointed at it must not send it a stored password). It
 * answers nothing, and closes each connection shortly after its first bytes so a client fails
 * fast instead of waiting out its timeout.
 */
export async function recordingServer(): Promise<RecordingServer> {
  const chunks: Buffer[] = [];
  const server = await loopbackServer((s) =>
    s.on('data', (d: Buffer) => {
      chunks.push(d);
      setTimeout(() => s.destroy(), 50);
    }),
  );
  return { ...server, received: () => Buffer.concat(chunks).toString('latin1') };
}
