/**
 * The console history of each user and profile: JSON files written atomically under
 * `<dir>/<user hash>/<profile>.json`, HISTORY_LINES kept, oldest dropped. Lines are stored as
 * given: the caller redacts them first (redactArgs).
 */
export class ConsoleHistory {
  constructor(readonly dir: string) {}

  add(user: string, profileId: string, line: string): void {
    void user;
    void profileId;
    void line;
    throw new Error('ConsoleHistory.add: not built yet');
  }

  list(user: string, profileId: string): string[] {
    void user;
    void profileId;
    throw new Error('ConsoleHistory.list: not built yet');
  }
}
