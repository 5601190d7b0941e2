import { join } from 'node:path';
import { ConsoleHistory } from '../history';
import { ReplyFiles } from '../reply/replyFiles';
import { ConsoleLinks } from './consoleLinks';
import { HistoryQueue } from './historyQueue';

/** What the console keeps between calls: its connections, the history, the download files. */
export interface ConsoleServices {
  links: ConsoleLinks;
  /** Written a moment after each reply (historyQueue.ts); flush() on shutdown. */
  history: HistoryQueue;
  files: ReplyFiles;
}

/** The console's state under the data dir: `console-history/` and `console-replies/`, beside profiles.json. */
export function consoleServices(dataDir: string): ConsoleServices {
  return {
    links: new ConsoleLinks(),
    history: new HistoryQueue(new ConsoleHistory(join(dataDir, 'console-history'))),
    files: new ReplyFiles(join(dataDir, 'console-replies')),
  };
}
