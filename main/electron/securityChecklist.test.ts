import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCKED_WEB_PREFERENCES } from './webPreferences';

/**
 * The Electron security checklist items that can be checked without an Electron
 * binary. The electron e2e project checks the live window where a binary exists.
 */
describe('Electron security checklist', () => {
  it('pins the web preferences: isolation and sandbox on, Node off, web security on', () => {
    expect(LOCKED_WEB_PREFERENCES).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    const window = readFileSync(new URL('./mainWindow.ts', import.meta.url), 'utf8');
    expect(window).toContain('...LOCKED_WEB_PREFERENCES');
    expect(window).not.toMatch(/nodeIntegration:\s*true|contextIsolation:\s*false|sandbox:\s*false|webSecurity:\s*false/);
  });

  it('flips the fuses in the packaged binary: no RunAsNode, NODE_OPTIONS or inspect', () => {
    const yml = readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8');
    const fuses = yml.slice(yml.indexOf('electronFuses:'));
    expect(fuses).toMatch(/\n\s+runAsNode: false/);
    expect(fuses).toMatch(/\n\s+enableNodeOptionsEnvironmentVariable: false/);
    expect(fuses).toMatch(/\n\s+enableNodeCliInspectArguments: false/);
    expect(fuses).toMatch(/\n\s+onlyLoadAppFromAsar: true/);
  });

  it('denies permissions, popups, webviews and foreign navigation, and never opens file://', () => {
    const hardening = readFileSync(new URL('./hardening.ts', import.meta.url), 'utf8');
    expect(hardening).toMatch(/setPermissionRequestHandler\(\(_wc, _permission, callback\) => callback\(false\)\)/);
    expect(hardening).toContain("return { action: 'deny' }");
    expect(hardening).toContain("'will-attach-webview'");
    expect(hardening).toContain("'will-navigate'");
    const sources = ['main.ts', 'mainWindow.ts', 'protocol.ts'].map((f) => readFileSync(new URL(`./${f}`, import.meta.url), 'utf8')).join('\n');
    expect(sources).not.toContain('loadFile(');
    expect(sources).not.toContain('file://');
  });
});
