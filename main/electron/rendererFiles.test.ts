import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentTypeFor, isAppUrl, RENDERER_CSP, rendererResponse, resolveRendererPath } from './rendererFiles';

const root = path.resolve('/srv/cacheboard/dist/renderer');

describe('resolveRendererPath', () => {
  it('maps the app root and plain assets to files under the renderer dir', () => {
    expect(resolveRendererPath(root, 'app://cacheboard/')).toBe(path.join(root, 'index.html'));
    expect(resolveRendererPath(root, 'app://cacheboard')).toBe(path.join(root, 'index.html'));
    expect(resolveRendererPath(root, 'app://cacheboard/assets/index-abc.js?v=1#x')).toBe(path.join(root, 'assets', 'index-abc.js'));
    expect(resolveRendererPath(root, 'app://cacheboard/assets/my%20font.woff2')).toBe(path.join(root, 'assets', 'my font.woff2'));
  });

  it('refuses every spelling of a path that climbs out of the renderer dir', () => {
    const attempts = [
      'app://cacheboard/..%2f..%2fetc%2fpasswd',
      'app://cacheboard/assets/..%2F..%2F..%2Fsecret.txt',
      'app://cacheboard/%2e%2e%2f%2e%2e%2fsecret.txt',
      'app://cacheboard/..%5c..%5csecret.txt',
      'app://cacheboard/assets%5c..%5c..%5csecret.txt',
      'app://cacheboard/index.html%00.js',
      'app://cacheboard/%E0%A4%A', // malformed escape
    ];
    for (const url of attempts) expect(resolveRendererPath(root, url), url).toBeNull();
  });

  it('keeps URL-normalised dot segments inside the renderer dir', () => {
    // The URL parser already folds these; they must land inside root, never above it.
    expect(resolveRendererPath(root, 'app://cacheboard/../../etc/passwd')).toBe(path.join(root, 'etc', 'passwd'));
    expect(resolveRendererPath(root, 'app://cacheboard/%2e%2e/%2e%2e/etc/passwd')).toBe(path.join(root, 'etc', 'passwd'));
  });

  it('refuses URLs that are not on app://cacheboard', () => {
    for (const url of [
      'file:///etc/passwd',
      'app://other/index.html',
      'app://cacheboard:8080/index.html',
      'app://user:pw@cacheboard/index.html',
      'https://cacheboard/index.html',
      'not a url',
    ]) {
      expect(resolveRendererPath(root, url), url).toBeNull();
    }
  });
});

describe('isAppUrl', () => {
  it('accepts our origin only', () => {
    expect(isAppUrl('app://cacheboard/index.html')).toBe(true);
    expect(isAppUrl('app://cacheboard.evil/index.html')).toBe(false);
    expect(isAppUrl('about:blank')).toBe(false);
    expect(isAppUrl('')).toBe(false);
  });
});

describe('contentTypeFor', () => {
  it('gives module scripts a JavaScript type, which Chromium insists on', () => {
    expect(contentTypeFor('/x/assets/index-abc.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('/x/assets/CHUNK.JS')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeFor('/x/a.mjs')).toBe('text/javascript; charset=utf-8');
  });

  it('knows the other asset types Vite emits and falls back to octet-stream', () => {
    expect(contentTypeFor('index.html')).toBe('text/html; charset=utf-8');
    expect(contentTypeFor('a.css')).toBe('text/css; charset=utf-8');
    expect(contentTypeFor('logo.svg')).toBe('image/svg+xml');
    expect(contentTypeFor('a.png')).toBe('image/png');
    expect(contentTypeFor('f.woff2')).toBe('font/woff2');
    expect(contentTypeFor('a.js.map')).toBe('application/json; charset=utf-8');
    expect(contentTypeFor('mystery.bin')).toBe('application/octet-stream');
    expect(contentTypeFor('LICENSE')).toBe('application/octet-stream');
  });
});

describe('rendererResponse', () => {
  let base: string;
  let dir: string;

  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'cb-renderer-'));
    dir = path.join(base, 'renderer');
    mkdirSync(path.join(dir, 'assets'), { recursive: true });
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(path.join(base, 'secret.txt'), 'do not serve');
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const get = (url: string, method = 'GET') => rendererResponse(dir, { method, url });

  it('serves a file with its MIME type and the CSP header', async () => {
    const res = await get('app://cacheboard/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(RENDERER_CSP);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.text()).toBe('console.log(1)');
  });

  it('does not serve a real file next to the renderer dir through an encoded ..', async () => {
    const res = await get('app://cacheboard/..%2fsecret.txt');
    expect(res.status).toBe(403);
    expect(await res.text()).toBe('');
  });

  it('answers 404 for a missing asset but index.html for a client-side route', async () => {
    expect((await get('app://cacheboard/assets/missing.js')).status).toBe(404);
    const route = await get('app://cacheboard/connections');
    expect(route.status).toBe(200);
    expect(route.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await route.text()).toContain('id="root"');
  });

  it('refuses methods other than GET and HEAD, and HEAD has no body', async () => {
    expect((await get('app://cacheboard/index.html', 'POST')).status).toBe(405);
    const head = await get('app://cacheboard/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});
