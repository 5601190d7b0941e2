/** A fresh id for the contract's consoleId and runId: a UUID without its dashes (32 hex digits). */
export function newId(): string {
  return crypto.randomUUID().replaceAll('-', '');
}

let pageConsole: string | undefined;

/**
 * This page load's consoleId, made once: the Node side keeps the console's connections (its
 * SELECT, MULTI, CLIENT SETNAME) under it, so leaving the page and coming back finds them.
 */
export function consoleId(): string {
  pageConsole ??= newId();
  return pageConsole;
}
