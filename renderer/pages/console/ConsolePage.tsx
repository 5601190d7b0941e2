import { useEffect, useMemo, useRef, useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import type { ConsoleTarget } from '../../../app/schemas/console';
import { roleOf } from '../../auth/permissions';
import { useSession } from '../../auth/SessionContext';
import { useCall } from '../../bridge/useCall';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Segmented } from '../../components/Segmented';
import { WithProfile } from '../../components/WithProfile';
import { besideField } from '../../lib/formInput';
import { CommandInput } from './CommandInput';
import { entryStatus } from './entryStatus';
import { consoleId } from './ids';
import { commandLines } from './lineTokens';
import { serverTitle } from '../../../app/redis/serverTitle';
import { ConsoleNotes } from './ConsoleNotes';
import { RunEntry } from './RunEntry';
import { TargetPicker } from './TargetPicker';
import { MAX_ENTRIES, useConsoleRuns } from './useConsoleRuns';
import './console.css';

/**
 * Console: any command in redis-cli syntax against the chosen profile, with that server's own
 * COMMAND DOCS as autocomplete and inline docs, replies drawn by their RESP type (folding,
 * virtual, bounded with a download), the guard's held commands typed back, and a target
 * node on a cluster or a server with replicas.
 */
export function ConsolePage() {
  return (
    <WithProfile purpose="run commands on it" testId="console-no-profile">
      {(profile) => <ProfileConsole profile={profile} />}
    </WithProfile>
  );
}

const PROTOCOLS = [
  { value: 2, label: 'RESP2' },
  { value: 3, label: 'RESP3' },
] as const;

/** `127.0.0.1:6379[2]>` as redis-cli prompts (a cluster or sentinel profile by its name: its address is a seed). */
function promptOf(profile: ProfileView): (db: number) => string {
  const where = profile.topology === undefined ? `${profile.host}:${profile.port}` : profile.name;
  return (db) => `${where}${db === 0 ? '' : `[${db}]`}>`;
}

/** The history for ↑: the profile's, then this session's, without a line twice in a row. */
function historyOf(saved: readonly string[], session: readonly string[]): string[] {
  const out: string[] = [];
  for (const l of [...saved, ...session]) if (out.at(-1) !== l) out.push(l);
  return out;
}

function ProfileConsole({ profile }: { profile: ProfileView }) {
  const { session } = useSession();
  const catalog = useCall('console.catalog', { profileId: profile.id });
  const targets = useCall('console.targets', { profileId: profile.id });
  const saved = useCall('console.history', { profileId: profile.id });
  const runs = useConsoleRuns(profile.id, consoleId(), profile.db);
  const [text, setText] = useState('');
  const [inputError, setInputError] = useState<string>();
  const [target, setTarget] = useState<ConsoleTarget>({ kind: 'auto' });
  const [protocol, setProtocol] = useState<2 | 3>(3);
  const [raw, setRaw] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  // A held command settled (run or not): the keyboard goes back to the command line.
  const back = () => input.current?.focus();
  const prompt = useMemo(() => promptOf(profile), [profile]);
  const history = useMemo(() => historyOf(saved.data?.lines ?? [], runs.sessionLines), [saved.data, runs.sessionLines]);
  const last = runs.entries.at(-1);

  // The newest command and its answer come into view, as in a terminal.
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' });
  }, [runs.entries.length, last?.state.kind]);

  async function run() {
    const lines = commandLines(text);
    if (lines.length === 0 || runs.busy) return;
    setInputError(undefined);
    setText('');
    const stop = await runs.runLines(lines, { target, protocol, raw });
    const rest = lines.slice(stop.next);
    // Lines not run go back into the input, before anything typed meanwhile.
    if (rest.length > 0) setText((typed) => [...rest, ...(typed === '' ? [] : [typed])].join('\n'));
    if (stop.inputError !== undefined) {
      const words = besideField(stop.inputError.message, stop.inputError.field);
      setInputError(lines.length > 1 ? `Line ${stop.next + 1}: ${words}` : words);
    }
  }

  return (
    <div className="page cn-page" data-testid="console-page" data-db={runs.db}>
      <div className="toolbar cn-toolbar">
        <p className="page-intro">
          <strong>{profile.name}</strong>
          {catalog.data !== undefined && catalog.data.version !== '' && (
            <span data-testid="console-server"> · {serverTitle(catalog.data.server, catalog.data.version)}</span>
          )}{' '}
          · redis-cli syntax, the server’s own docs
        </p>
        <div className="cn-settings">
          <span className="tag cn-db" data-testid="console-db" title="The DB commands run in: SELECT changes it">
            DB {runs.db}
          </span>
          {targets.data !== undefined && <TargetPicker topology={targets.data.topology} nodes={targets.data.nodes} value={target} onChange={setTarget} />}
          <Segmented label="Protocol" options={PROTOCOLS} value={protocol} onChange={setProtocol} testId="console-protocol" />
          <label className="field-check cn-raw-toggle" title="Replies as redis-cli --raw prints them: no quotes, no types">
            <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} data-testid="console-raw" />
            Raw
          </label>
          <button type="button" className="btn btn-small" onClick={runs.clear} disabled={runs.entries.length === 0 || runs.busy} data-testid="console-clear">
            Clear
          </button>
        </div>
      </div>
      <ConsoleNotes analyst={session.authRequired && roleOf(session) === 'analyst'} profile={profile} catalog={catalog.data} catalogError={catalog.error} />
      <ErrorAlert error={targets.error} title="Cannot list the nodes:" />
      {/* How the last command ended, said to a screen reader; the transcript itself is not live (a reply can be 20,000 lines). */}
      <p className="cn-sr" role="status" data-testid="console-status">
        {last?.state.kind === 'running' ? '' : entryStatus(last)}
      </p>
      <section className="cn-transcript" aria-label="Commands and replies" data-testid="console-transcript">
        {runs.entries.length === 0 ? (
          <p className="empty cn-empty">
            Type a command below and press Enter. Tab completes command names, subcommands and options from the server’s COMMAND DOCS; ↑ and ↓ walk your
            history. SUBSCRIBE and MONITOR have pages of their own.
          </p>
        ) : (
          runs.entries.length >= MAX_ENTRIES && <p className="muted cn-kept">The last {MAX_ENTRIES} commands are kept here.</p>
        )}
        {runs.entries.map((e) => (
          <RunEntry
            key={e.id}
            entry={e}
            prompt={prompt}
            raw={raw}
            busy={runs.busy}
            onConfirm={(typed) => void runs.confirm(e, typed).then(back)}
            onDismiss={() => {
              runs.dismiss(e);
              back();
            }}
            onCancel={() => void runs.cancel(e)}
          />
        ))}
        <div ref={end} />
      </section>
      <CommandInput
        prompt={prompt(runs.db)}
        commands={catalog.data?.commands ?? []}
        history={history}
        value={text}
        onChange={(t) => {
          setText(t);
          setInputError(undefined);
        }}
        onRun={() => void run()}
        busy={runs.busy}
        error={inputError}
        textareaRef={input}
      />
    </div>
  );
}
