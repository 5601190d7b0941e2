import { useState } from 'react';
import { chooseTheme, storedTheme, THEMES, type Theme } from '../lib/theme';

const LABELS: Record<Theme, string> = { system: 'System', light: 'Light', dark: 'Dark' };

/** Light, dark or as the system says; remembered in this browser (local storage). */
export function ThemeSwitch() {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  return (
    <label className="theme-switch">
      <span>Theme</span>
      <select
        value={theme}
        data-testid="theme-switch"
        onChange={(e) => {
          const t = THEMES.find((x) => x === e.target.value) ?? 'system';
          setTheme(t);
          chooseTheme(t);
        }}
      >
        {THEMES.map((t) => (
          <option key={t} value={t}>
            {LABELS[t]}
          </option>
        ))}
      </select>
    </label>
  );
}
