import { reachesOtherDb } from '../../../../app/redis/commands';
import type { KeyTracker } from '../../resp/types';
import type { DistinctKeyTracker } from '../../resp/keyTracker';

/**
 * The KeyTracker handed to the source: counts keys (when a count is wanted) and watches for
 * commands that reach past the DB the load writes (reachesOtherDb): SELECT would switch the
 * data connection (in swap mode, possibly onto the live DB), SWAPDB and MOVE touch another DB,
 * FLUSHALL empties every DB. RESP dumps of several DBs carry SELECT; such input is refused
 * rather than allowed to write where the user did not point the load. Sources report a command
 * through untrackable() while encoding its batch, before the pipe sends it, so aborting there
 * stops the load before the command leaves.
 */
export class InputGuard implements KeyTracker {
  private readonly abort = new AbortController();
  private forbiddenCommand: string | undefined;

  constructor(private readonly counter: DistinctKeyTracker | undefined) {}

  /** Fires when the input holds a command that reaches another DB. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  get forbidden(): string | undefined {
    return this.forbiddenCommand;
  }

  add(buf: Buffer, start: number, end: number): void {
    this.counter?.add(buf, start, end);
  }

  untrackable(command: string): void {
    const name = command.toUpperCase();
    // A command reaching another DB is never sent (the load stops before it): the keys counted so far still bound what was written.
    const otherDb = reachesOtherDb(name);
    if (!otherDb) this.counter?.untrackable(name);
    if (otherDb && this.forbiddenCommand === undefined) {
      this.forbiddenCommand = name;
      this.abort.abort();
    }
  }
}
