import type { CallArgs, CallName, CallOutput, StreamArgs, StreamName } from './contract';

/** A call that stops one job by its id and says whether there was anything left to stop. */
type CancelCallIn<N extends CallName = CallName> = N extends CallName
  ? CallArgs<N> extends { jobId: string }
    ? CallOutput<N> extends { cancelled: boolean }
      ? N
      : never
    : never
  : never;

/** A stream that follows one job by its id: its events, replayed to a late subscriber, up to the last. */
export type JobStream<N extends StreamName = StreamName> = N extends StreamName ? (StreamArgs<N> extends { jobId: string } ? N : never) : never;

/**
 * Every kind of long job the contract has, keyed by its progress stream: the kind's name (the
 * server's manager for it, main/core/jobKinds.ts) and the call that cancels it. The
 * renderer's cancel buttons and the server's progress and cancel handlers are derived from this
 * one table; `satisfies` fails to compile, naming the stream, when a job stream of the contract
 * (a stream whose input is a `jobId`) has no entry here, or when an entry's call is no cancel call.
 */
export const JOB_STREAMS = {
  'bulk.progress': { kind: 'bulk', cancel: 'bulk.cancel' },
  'sampling.progress': { kind: 'sampling', cancel: 'sampling.cancel' },
  'trials.progress': { kind: 'trials', cancel: 'trials.cancel' },
  'audience.progress': { kind: 'audience', cancel: 'audience.cancel' },
  'audience.demoProgress': { kind: 'demo', cancel: 'audience.demoCancel' },
  'keys.index.progress': { kind: 'keysIndex', cancel: 'keys.index.cancel' },
  'keys.actions.progress': { kind: 'keyActions', cancel: 'keys.actions.cancel' },
  'export.progress': { kind: 'export', cancel: 'export.cancel' },
} as const satisfies { [N in JobStream]: { kind: string; cancel: CancelCallIn } };

/** The calls that stop a long job by its id. */
export type CancelCall = (typeof JOB_STREAMS)[JobStream]['cancel'];
