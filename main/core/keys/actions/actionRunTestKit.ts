import type { z } from 'zod';
import { KeyAction, KeySelection, Pace } from '../../../../app/schemas/keyActions';
import { Pool } from '../../pool/pool';
import type { StoredProfile } from '../../pool/types';
import type { FinalActionEvent } from './actionJobs';
import { actionTargets } from './actionTargets';
import { newRunId } from './checkpoints';
import { runKeyActions } from './runKeyActions';

/** What a test asks for, as the contract takes it (schema defaults filled in here). */
export interface RunAsk {
  selection: z.input<typeof KeySelection>;
  action: z.input<typeof KeyAction>;
  dryRun: boolean;
  /** Between a page's check round and its act round (KeyActionRun.beforeAct). */
  beforeAct?: (keys: Buffer[]) => Promise<void>;
}

/**
 * Tests only: bulk key actions' core (the profile's masters, a cluster's retry, the engine) over
 * a real pool, without the dispatcher or checkpoints: each run followed to its final event.
 */
export function actionRunKit(profiles: StoredProfile[]): { run(profileId: string, ask: RunAsk): Promise<FinalActionEvent>; close(): Promise<void> } {
  const pool = new Pool({ resolve: (id) => profiles.find((p) => p.id === id), list: () => profiles });
  return {
    async run(profileId, ask) {
      const profile = profiles.find((p) => p.id === profileId);
      if (profile === undefined) throw new Error(`no profile ${profileId}`);
      const { db } = profile.spec;
      const { targets, retry } = await actionTargets(pool, profileId, profile.spec, db);
      return runKeyActions(
        {
          runId: newRunId(),
          profileId,
          target: `${profileId}/${db}`,
          db,
          targets: targets('cacheboard-test'),
          selection: KeySelection.parse(ask.selection),
          action: KeyAction.parse(ask.action),
          pace: Pace.parse({}),
          dryRun: ask.dryRun,
          store: null,
          ...(retry === undefined ? {} : { retry }),
          ...(ask.beforeAct === undefined ? {} : { beforeAct: ask.beforeAct }),
        },
        () => undefined,
        new AbortController().signal,
      );
    },
    close: () => pool.shutdown(),
  };
}
