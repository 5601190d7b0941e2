/**
 * One writer waiting for a condition that socket events change (replies read, a drain, a
 * stop): `until` resolves once `done()` holds, re-checked at each `check()`. A pipe's writer
 * waits on one thing at a time, so one pending wait is all this keeps.
 */
export class Condition {
  private pending: (() => void) | undefined;

  until(done: () => boolean): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      this.pending = () => {
        if (!done()) return;
        this.pending = undefined;
        resolve();
      };
    });
  }

  /** Something changed: re-check the pending wait's condition. */
  check(): void {
    this.pending?.();
  }
}
