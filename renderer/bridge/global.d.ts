import type { Bridge } from '../../app/bridge';

declare global {
  interface Window {
    /** Exposed by the Electron preload through contextBridge; absent in the web build. */
    bridge?: Bridge;
  }
}

export {};
