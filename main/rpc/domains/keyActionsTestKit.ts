import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type Name, type StreamEvent } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import type { RpcClient } from '../../../app/rpcClient';
import { AuditLog, type AuditEntry } from '../../core/audit/auditLog';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { CheckpointStore } from '../../core/keys/actions/checkpoints';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { jobHandlers } from './jobs';
import { keyActionHandlers, type KeyActionHooks } from './keyActions';
import { roleClients } from './keysEditRpcTestKit';

type ActionEvent = StreamEvent<'keys.actions.progress'>;
type Final = Extract<ActionEvent, { kind: 'done' | 'cancelled' | 'failed' }>;

/** Tests only: the bulk key action entries behind a real dispatcher, a client per role, its audit log and checkpoints. */
export interface KeyActionsRpc {
  as(role: Role): RpcClient;
  /** Start a run as ops and follow it to its last event; `onEvent` sees each event as it comes. */
  run(input: Record<string, unknown>, onEvent?: (e: ActionEvent, jobId: string) => void): Promise<{ final: Final; events: ActionEvent[]; jobId: string }>;
  start(role: Role, input: Record<string, unknown>): Promise<{ jobId: string }>;
  follow(jobId: string, onEvent?: (e: ActionEvent) => void): Promise<{ final: Final; events: ActionEvent[] }>;
  audit(): AuditEntry[];
  store: CheckpointStore;
  hooks: KeyActionHooks;
  close(): Promise<void>;
}

export function keyActionsRpc(builtin: StoredProfile[]): KeyActionsRpc {
  const dir = mkdtempSync(join(tmpdir(), 'cb-key-actions-rpc-'));
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), readOnly: builtin });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const audit = new AuditLog(join(dir, 'audit.log'));
  const jobs = createJobs();
  const store = new CheckpointStore(join(dir, 'key-actions'));
  const hooks: KeyActionHooks = {};
  // Only the bulk key action entries are under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  // The hooks object is read on each start, so a test can set beforeAct after the kit is made.
  const live: KeyActionHooks = {
    beforeAct: async (keys) => {
      await hooks.beforeAct?.(keys);
    },
  };
  const handlers = { ...unused, ...keyActionHandlers({ profiles, pool, jobs, audit }, store, live), ...jobHandlers(jobs) } as Handlers;
  const dispatcher = new Dispatcher(handlers, { streamIntervalMs: 10 });
  const as = roleClients(dispatcher);
  const follow = (jobId: string, onEvent?: (e: ActionEvent) => void) =>
    new Promise<{ final: Final; events: ActionEvent[] }>((resolve, reject) => {
      const events: ActionEvent[] = [];
      as('ops').subscribe(
        'keys.actions.progress',
        { jobId },
        {
          onEvents: (batch) => {
            for (const e of batch) {
              events.push(e);
              onEvent?.(e);
            }
          },
          onEnd: (error?: AppError) => {
            const last = events[events.length - 1];
            if (error !== undefined || last === undefined || last.kind === 'progress') reject(error ?? new Error('the stream ended without an outcome'));
            else resolve({ final: last, events });
          },
        },
      );
    });
  const start = (role: Role, input: Record<string, unknown>) => as(role).invoke('keys.actions.start', input as never);
  return {
    as,
    start,
    follow,
    async run(input, onEvent) {
      const { jobId } = await start('ops', input);
      return { ...(await follow(jobId, onEvent === undefined ? undefined : (e) => onEvent(e, jobId))), jobId };
    },
    audit: () => audit.tail(1000).reverse(),
    store,
    hooks,
    async close() {
      await cancelAllJobs(jobs);
      await pool.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
