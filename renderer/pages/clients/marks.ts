import type { ClientMark, ClientsList } from '../../../app/schemas/clients';
import { formatBytes, formatDuration } from '../../lib/format';

/** A highlight in the page's words: its chip, its legend line. */
export interface MarkWords {
  chip: string;
  title: string;
  /** What sets it, with the thresholds the list was made with. */
  rule(list: Pick<ClientsList, 'idleSeconds' | 'nearLimitShare' | 'bigOmemBytes'>): string;
}

export const MARK_WORDS: Record<ClientMark, MarkWords> = {
  omem: {
    chip: 'buffer',
    title: 'Output buffer near its limit',
    rule: (l) =>
      `omem at ${Math.round(l.nearLimitShare * 100)} % of its class’s client-output-buffer-limit or more (${formatBytes(l.bigOmemBytes)} where none is set)`,
  },
  idle: {
    chip: 'idle',
    title: 'Long idle',
    rule: (l) => `no command for ${formatDuration(l.idleSeconds)} or more (subscribers, blocked and MONITOR clients aside)`,
  },
  blocked: { chip: 'blocked', title: 'Blocked', rule: () => 'flag b: waiting in BLPOP, XREAD BLOCK, WAIT and the like' },
  monitor: { chip: 'MONITOR', title: 'MONITOR', rule: () => 'flag O: the server copies every command to it' },
  pubsub: { chip: 'pub/sub', title: 'Pub/Sub', rule: () => 'flag P: subscribed to channels or patterns' },
  ours: { chip: 'ours', title: 'Cacheboard', rule: () => 'a connection of Cacheboard’s own (named cacheboard:…)' },
};

/** A client's buffer chip says how close it is: "buffer 85 %". */
export function chipText(mark: ClientMark, limitShare: number | undefined): string {
  return mark === 'omem' && limitShare !== undefined ? `buffer ${Math.round(limitShare * 100)} %` : MARK_WORDS[mark].chip;
}
