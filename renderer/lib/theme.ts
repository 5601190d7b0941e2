import { readStored, writeStored } from './storage';

/** The theme switch's choices: follow the system's light or dark setting, or pin one. */
export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

const KEY = 'cacheboard.theme';

/** The remembered choice; anything else in storage (edited, from another version) reads as 'system'. */
export function storedTheme(): Theme {
  const v = readStored(KEY);
  return THEMES.find((t) => t === v) ?? 'system';
}

/**
 * Pins the page to `theme`, or hands it back to the system. styles.css reads the root's
 * data-theme (its color-scheme picks each light-dark() colour); 'system' removes it, so
 * prefers-color-scheme decides, and follows the system when it changes.
 */
export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  if (theme === 'system') delete root.dataset.theme;
  else root.dataset.theme = theme;
}

export function chooseTheme(theme: Theme): void {
  writeStored(KEY, theme);
  applyTheme(theme);
}
