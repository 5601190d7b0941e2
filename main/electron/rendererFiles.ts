import { readFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * What app://cacheboard/ serves: the built renderer. No electron import, so it
 * is unit-tested in plain Node; protocol.ts only plugs it into Electron.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'cacheboard';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/** Same policy as the web build, minus what only makes sense over HTTP. */
export const RENDERER_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'";

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};

/** Chromium refuses module scripts served with a non-JavaScript MIME type, so this must be exact. */
export function contentTypeFor(filePath: string): string {
  return MIME[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Whether a URL is on our app:// origin. Node's URL gives "null" as the origin
 * of a non-special scheme, so scheme and host are compared instead.
 */
export function isAppUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}

/**
 * Maps an app:// request URL to a file under `root`, or null when the URL is
 * not ours or would escape `root` (`..`, encoded or not, backslashes, NUL).
 * "/" maps to index.html.
 */
export function resolveRendererPath(root: string, requestUrl: string): string | null {
  if (!isAppUrl(requestUrl)) return null;
  let rel: string;
  try {
    rel = decodeURIComponent(new URL(requestUrl).pathname);
  } catch {
    return null; // malformed percent-encoding
  }
  // A backslash is a separator on Windows and never part of a built asset name.
  if (rel.includes('\0') || rel.includes('\\')) return null;
  if (rel === '' || rel.endsWith('/')) rel += 'index.html';
  const base = path.resolve(root);
  const full = path.resolve(base, `.${rel.startsWith('/') ? rel : `/${rel}`}`);
  const inside = path.relative(base, full);
  if (inside === '' || inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) return null;
  return full;
}

const HEADERS = {
  'content-security-policy': RENDERER_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

async function readFirst(paths: string[]): Promise<{ path: string; body: Buffer } | null> {
  for (const p of paths) {
    try {
      return { path: p, body: await readFile(p) };
    } catch {
      // missing, or a directory: try the next candidate
    }
  }
  return null;
}

/**
 * The response to one app:// request: the file under `root` with its MIME
 * type and the CSP header, 403 for URLs that are not ours or try to escape,
 * 404 when missing. Client-side routes (no extension) fall back to index.html
 * so a reload on a deep link keeps working.
 */
export async function rendererResponse(root: string, request: { method: string; url: string }): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: HEADERS });
  const file = resolveRendererPath(root, request.url);
  if (file === null) return new Response(null, { status: 403, headers: HEADERS });
  const candidates = path.extname(file) === '' ? [file, path.join(path.resolve(root), 'index.html')] : [file];
  const hit = await readFirst(candidates);
  if (hit === null) return new Response(null, { status: 404, headers: HEADERS });
  return new Response(request.method === 'HEAD' ? null : new Uint8Array(hit.body), {
    status: 200,
    headers: { ...HEADERS, 'content-type': contentTypeFor(hit.path) },
  });
}
