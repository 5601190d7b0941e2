/**
 * Browsers send Origin on WebSocket upgrades but do not apply CORS to them, so
 * without this check any web page the user visits could drive the API of a
 * Cacheboard running on their machine (cross-site WebSocket hijacking).
 * Non-browser clients send no Origin and are allowed.
 */
export function originAllowed(origin: string | undefined, host: string | undefined, extra: readonly string[] = []): boolean {
  if (origin === undefined) return true;
  if (extra.includes(origin)) return true;
  try {
    return host !== undefined && new URL(origin).host === host;
  } catch {
    return false;
  }
}
