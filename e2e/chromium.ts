/** Debian's Chromium: Playwright's own browser download cannot work on these machines. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

// Without the background-networking flags Chromium keeps dialling out and the closed network refuses it.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
