import { SESSION_ENDED_EVENT } from '../auth/sessionApi';
import { IpcBridge } from './ipcBridge';
import type { ClientBridge } from './link';
import { WsBridge, wsUrl } from './wsBridge';

export type { ClientBridge, LinkState, LinkStatus } from './link';

let instance: ClientBridge | undefined;

/** IPC when the Electron preload exposed `window.bridge`, else the WebSocket. One per page. */
export function getBridge(): ClientBridge {
  instance ??= window.bridge
    ? new IpcBridge(window.bridge)
    : new WsBridge({
        url: wsUrl(window.location),
        onSessionEnded: () => window.dispatchEvent(new Event(SESSION_ENDED_EVENT)),
      });
  return instance;
}
