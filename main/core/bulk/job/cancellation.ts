/** The user cancelled the load (bulk.cancel, Ctrl-C, shutdown). */
export class LoadCancelled extends Error {
  constructor() {
    super('The load was cancelled');
    this.name = 'LoadCancelled';
  }
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new LoadCancelled();
}

/** Resolve `p`, or reject with LoadCancelled as soon as the signal fires (p keeps running). */
export function untilCancelled<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new LoadCancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new LoadCancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const p = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  return untilCancelled(p, signal).finally(() => clearTimeout(timer));
}
