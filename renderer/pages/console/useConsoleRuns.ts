import { useRef, useState } from 'react';
import type { CallInput, CallOutput } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import type { ConsoleTarget } from '../../../app/schemas/console';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { newId } from './ids';

/** A rate-limited line waits this long before it is sent again, at most RATE_RETRIES times (a minute). */
const RATE_WAIT_MS = 100;
const RATE_RETRIES = 600;

type Result = CallOutput<'console.run'>;
export type Done = Extract<Result, { status: 'done' }>;
export type Held = Extract<Result, { status: 'held' }>;

/** How the page runs commands now: each run takes them with it (a later change leaves it as it ran). */
export interface RunSettings {
  target: ConsoleTarget;
  protocol: 2 | 3;
  raw: boolean;
}

export type EntryState =
  | { kind: 'running'; runId: string; startedAt: number; cancelling: boolean; cancelError?: AppError }
  | { kind: 'done'; result: Done }
  | { kind: 'held'; result: Held }
  | { kind: 'failed'; error: AppError }
  | { kind: 'cancelled' };

/** One command of the transcript. */
export interface Entry {
  id: string;
  /** As typed until the server answers, then as it keeps it (secrets redacted). */
  line: string;
  /** As typed: what a held line runs again once confirmed (its shown line may be redacted). */
  typed: string;
  /** The prompt it ran under. */
  db: number;
  settings: RunSettings;
  state: EntryState;
}

/** The transcript keeps this many commands (each reply up to REPLY_DISPLAY_BYTES): the oldest go first. */
export const MAX_ENTRIES = 50;

/** Where a batch stopped: the line refused before it ran (a parse error), or held/failed/cancelled at. */
export interface BatchEnd {
  /** Index of the first line not run (lines.length when all ran). */
  next: number;
  /** The line the server could not take: the input shows it beside itself. */
  inputError?: AppError;
}

/** A refusal of the typed line itself (quoting, length): said beside the input, not in the transcript. */
function isLineError(e: AppError): boolean {
  return e.code === 'VALIDATION' && (e.field === 'line' || e.field === undefined);
}

/**
 * The console's runs: one `console.run` a line, in order, each with its own runId; held lines
 * confirmed and run again; a running one cancelled by its runId. The DB follows SELECT.
 */
export function useConsoleRuns(profileId: string, consoleId: string, initialDb: number) {
  const bridge = useBridge();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [db, setDb] = useState(initialDb);
  const [busy, setBusy] = useState(false);
  // Lines this session ran, as the server keeps them (redacted), for ↑.
  const [sessionLines, setSessionLines] = useState<string[]>([]);
  const dbRef = useRef(initialDb);

  const update = (id: string, state: EntryState, line?: string) =>
    setEntries((list) => list.map((e) => (e.id === id ? { ...e, state, line: line ?? e.line } : e)));

  /** Runs one line as the entry `id`; returns how it ended. */
  async function runOne(id: string, line: string, settings: RunSettings, confirm?: string): Promise<'done' | 'held' | 'stop' | AppError> {
    const runId = newId();
    update(id, { kind: 'running', runId, startedAt: performance.now(), cancelling: false });
    const input: CallInput<'console.run'> = {
      profileId,
      consoleId,
      runId,
      db: dbRef.current,
      line,
      ...settings,
      ...(confirm === undefined ? {} : { confirm }),
    };
    try {
      const result = await invokeWithinRate(input);
      setSessionLines((l) => [...l, result.line].slice(-500));
      if (result.status === 'held') {
        update(id, { kind: 'held', result }, result.line);
        return 'held';
      }
      dbRef.current = result.db;
      setDb(result.db);
      update(id, { kind: 'done', result }, result.line);
      return 'done';
    } catch (e) {
      const error = toAppError(e);
      if (confirm === undefined && isLineError(error)) {
        setEntries((list) => list.filter((x) => x.id !== id));
        return error;
      }
      update(id, error.code === 'CANCELLED' ? { kind: 'cancelled' } : { kind: 'failed', error });
      return 'stop';
    }
  }

  /**
   * console.run, waiting out the web build's per-user call rate (50 a second, bursts of 200)
   * instead of failing line 201 of a pasted script: a RATE_LIMITED call was refused before
   * anything ran, so sending it again runs it once.
   */
  async function invokeWithinRate(input: CallInput<'console.run'>) {
    for (let attempt = 0; ; attempt++) {
      try {
        return await bridge.invoke('console.run', input);
      } catch (e) {
        if (toAppError(e).code !== 'RATE_LIMITED' || attempt >= RATE_RETRIES) throw e;
        await new Promise((r) => setTimeout(r, RATE_WAIT_MS));
      }
    }
  }

  /** Every line in order; stops at the first that is refused, held, failed or cancelled. */
  async function runLines(lines: readonly string[], settings: RunSettings): Promise<BatchEnd> {
    setBusy(true);
    try {
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] as string;
        const id = newId();
        const entry: Entry = {
          id,
          line,
          typed: line,
          db: dbRef.current,
          settings,
          state: { kind: 'running', runId: '', startedAt: performance.now(), cancelling: false },
        };
        setEntries((list) => [...list, entry].slice(-MAX_ENTRIES));
        const end = await runOne(id, line, settings);
        if (typeof end === 'object') return { next: i, inputError: end };
        if (end !== 'done') return { next: i + 1 };
      }
      return { next: lines.length };
    } finally {
      setBusy(false);
    }
  }

  /** A held line typed back: run again with the confirmation. */
  async function confirm(entry: Entry, typed: string): Promise<void> {
    if (entry.state.kind !== 'held') return;
    setBusy(true);
    try {
      await runOne(entry.id, entry.typed, entry.settings, typed);
    } finally {
      setBusy(false);
    }
  }

  /** Leaves a held line unrun. */
  function dismiss(entry: Entry): void {
    update(entry.id, { kind: 'cancelled' });
  }

  async function cancel(entry: Entry): Promise<void> {
    const s = entry.state;
    if (s.kind !== 'running' || s.runId === '') return;
    update(entry.id, { ...s, cancelling: true });
    try {
      await bridge.invoke('console.cancel', { consoleId, runId: s.runId });
    } catch (e) {
      // The run goes on (its answer still lands): say why it could not be stopped.
      update(entry.id, { ...s, cancelling: false, cancelError: toAppError(e) });
    }
  }

  return { entries, db, busy, sessionLines, runLines, confirm, dismiss, cancel, clear: () => setEntries([]) };
}
