export const SESSION_COOKIE = 'cb_session';

/** One cookie's value from a Cookie header; undefined when absent. No decoding: our token is base64url. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site sends it), Secure under TLS. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${token}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');
}

export function clearedCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
