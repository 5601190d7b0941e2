import { join } from 'node:path';
import type { StreamEvent } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import type { RpcClient } from '../../../app/rpcClient';
import type { AuditEntry } from '../../core/audit/auditLog';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { CheckpointStore } from '../../core/keys/actions/checkpoints';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { jobHandlers } from './jobs';
import { keyActionHandlers, type KeyActionHooks } from './keyActions';
import { roleClients, domainRpcBase } from './domainRpcTestKit';

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
  const base = domainRpcBase('cb-key-actions-rpc-', builtin);
  const { dir, profiles, pool, audit } = base;
  const jobs = createJobs();
  const store = new CheckpointStore(join(dir, 'key-actions'));
  const hooks: KeyActionHooks = {};
  // The hooks object is read on each start, so a test can set beforeAct after the kit is made.
  const live: KeyActionHooks = {
    beforeAct: async (keys) => {
      await hooks.beforeAct?.(keys);
    },
  };
  const handlers = base.handlers({ ...keyActionHandlers({ profiles, pool, jobs, audit }, store, live), ...jobHandlers(jobs) });
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
    audit: base.auditEntries,
    store,
    hooks,
    async close() {
      await cancelAllJobs(jobs);
      await base.close();
    },
  };
}
