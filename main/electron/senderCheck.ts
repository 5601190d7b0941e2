import { isAppUrl } from './rendererFiles';

/** The parts of Electron's WebFrameMain the check reads (kept structural so it tests without Electron). */
export interface FrameLike {
  readonly url: string;
  readonly parent: unknown;
  readonly processId: number;
  readonly routingId: number;
}

/**
 * Why an IPC message must be ignored, or null when it comes from the main
 * frame of our window showing our own app:// page. The navigation guard
 * should keep the window on app://, but the preload (and its IPC) would run in
 * any page that got loaded there anyway, so every message is checked.
 */
export function senderProblem(frame: FrameLike | null, mainFrame: FrameLike): string | null {
  if (frame === null) return 'the sending frame is gone';
  if (frame.parent !== null) return 'sent from a subframe';
  if (frame.processId !== mainFrame.processId || frame.routingId !== mainFrame.routingId) {
    return 'not sent from the window main frame';
  }
  if (!isAppUrl(frame.url)) return `sent from a page outside app://cacheboard (${originOf(frame.url)})`;
  return null;
}

/** Only the origin goes into logs: paths and queries can carry user data. */
export function originOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return 'unparseable URL';
  }
}
