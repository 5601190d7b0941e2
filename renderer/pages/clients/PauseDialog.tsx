import { useState } from 'react';
import { MAX_PAUSE_MS, type PauseMode } from '../../../app/schemas/clients';
import { useBridge } from '../../bridge/BridgeContext';
import { Segmented } from '../../components/Segmented';
import { TextField } from '../../components/TextField';
import { useStart } from '../../lib/useStart';
import { ConfirmDialog } from './ConfirmDialog';

const MAX_SECONDS = MAX_PAUSE_MS / 1000;
const MODES = [
  { value: 'WRITE' as const, label: 'Writes' },
  { value: 'ALL' as const, label: 'Every command' },
];

interface Props {
  profileId: string;
  address: string;
  onClose(outcome: string | undefined): void;
}

/** The seconds typed, or why they will not do. */
export function pauseSeconds(text: string): { seconds: number } | { error: string } {
  const s = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(s)) return { error: 'A whole number of seconds' };
  if (s < 1 || s > MAX_SECONDS) return { error: `From 1 to ${MAX_SECONDS} seconds` };
  return { seconds: s };
}

/** CLIENT PAUSE on one node, asked first: what it holds, for how long, and how it ends. */
export function PauseDialog({ profileId, address, onClose }: Props) {
  const bridge = useBridge();
  const [mode, setMode] = useState<PauseMode>('WRITE');
  const [text, setText] = useState('5');
  const { start, starting, errors, error, clear } = useStart((field) => (field === 'ms' ? 'seconds' : field === 'mode' ? 'mode' : undefined));
  const parsed = pauseSeconds(text);
  const shown = 'error' in parsed ? parsed.error : errors.seconds;
  const pause = () =>
    start(async () => {
      if ('error' in parsed) return;
      // `confirm` is the word PAUSE: the server refuses a pause without it.
      const r = await bridge.invoke('clients.pause', { profileId, address, mode, ms: parsed.seconds * 1000, confirm: 'PAUSE' });
      onClose(`${address}: ${r.mode === 'ALL' ? 'every command' : 'writes'} paused for ${parsed.seconds} s.`);
    });
  const what = mode === 'ALL' ? 'every command' : 'writes';
  return (
    <ConfirmDialog
      title={`Pause clients on ${address}?`}
      confirmLabel={'error' in parsed ? 'Pause' : `Pause ${what} for ${parsed.seconds} s`}
      busy={starting}
      error={error}
      onConfirm={() => void pause()}
      onClose={() => onClose(undefined)}
      testId="clients-pause-dialog"
    >
      <div className="cl-pause-form">
        <Segmented
          label="What to pause"
          options={MODES}
          value={mode}
          onChange={(m) => {
            setMode(m);
            clear();
          }}
          testId="clients-pause-mode"
        />
        <TextField
          label="For (seconds)"
          value={text}
          onChange={(v) => {
            setText(v);
            clear();
          }}
          field="seconds"
          error={shown}
          numeric
          testId="clients-pause-seconds"
          hint={`At most ${MAX_SECONDS} s: it ends by itself then.`}
        />
      </div>
      {mode === 'WRITE' ? (
        <p>
          Commands that write wait (reads go on) until the time is up or you unpause: the usual stop before a failover or a switch of master. Replicas keep
          replicating.
        </p>
      ) : (
        <p className="hint hint-warn">
          Every command of every client waits, Cacheboard’s own included, so this page cannot read the node until the pause ends. Redis holds{' '}
          <code>CLIENT UNPAUSE</code> behind it too: it can only end by itself.
        </p>
      )}
    </ConfirmDialog>
  );
}
