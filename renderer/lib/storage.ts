/** localStorage that never throws: private modes and locked-down profiles refuse it. */
export function readStored(key: string): string | undefined {
  try {
    return window.localStorage.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Remembering is a convenience; the choice still holds for this session.
  }
}

/** localStorage (kept across reloads), or undefined where there is none or it is refused. */
export function localStore(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

/** This tab's sessionStorage, or undefined where there is none or it is refused. */
export function sessionStore(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.sessionStorage;
  } catch {
    return undefined;
  }
}

/**
 * A JSON value kept under `key`, checked by `parse` (storage is user-editable and
 * outlives versions of the page): undefined when absent, junk, or storage refuses us.
 */
export function readJson<T>(storage: Pick<Storage, 'getItem'> | undefined, key: string, parse: (value: unknown) => T | undefined): T | undefined {
  try {
    const raw = storage?.getItem(key);
    if (raw === null || raw === undefined) return undefined;
    return parse(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** Keep `value` under `key` (undefined removes it); false when storage refused it (full, denied). */
export function writeJson(storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined, key: string, value: unknown): boolean {
  try {
    if (value === undefined) storage?.removeItem(key);
    else storage?.setItem(key, JSON.stringify(value));
    return storage !== undefined;
  } catch {
    return false;
  }
}
