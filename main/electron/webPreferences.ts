/**
 * Every web preference that widens the renderer's reach, pinned explicitly
 * (not left to Electron's defaults, which have changed across versions). A
 * plain object with no electron import, so a test can check it anywhere.
 */
export const LOCKED_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  spellcheck: false,
} as const;
