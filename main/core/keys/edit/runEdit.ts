import { AppError } from '../../../../app/errors';
import type { EditOp, KeyMeta, KeyRef } from '../../../../app/schemas/keys';
import { keySlot } from '../../resp/slot';
import { keyName } from '../../text/keyText';
import { keyRef } from '../keyRef';
import { editError } from './editErrors';
import { editPlan, type EditPlan } from './editPlan';
import type { EditTarget } from './editTarget';
import type { MetaReader } from './freshMeta';
import { runScript } from './runScript';

/**
 * Records one edit that reached Redis: who and where are the caller's; the detail names the command and key(s), never a value.
 * 'started' comes before anything is sent, and throws when it cannot be recorded: the edit is then refused.
 */
export type EditRecord = (outcome: 'started' | 'ok' | 'failed', detail: string) => void;

/**
 * A rename on a cluster stays in its slot: RENAME of two keys in different slots is refused
 * (CROSSSLOT), as a script touching both would be. Said before anything is sent.
 */
function requireSameSlot(plan: EditPlan): void {
  const [from, to] = plan.keys;
  if (from === undefined || to === undefined) return;
  const a = keySlot(from);
  const z = keySlot(to);
  if (a === z) return;
  throw new AppError(
    'VALIDATION',
    `edit.to: on a cluster a key can be renamed only to a name in the same hash slot (Redis refuses others with CROSSSLOT): ` +
      `this key is in slot ${a}, the new name in slot ${z}. Names sharing a hash tag (the part in {braces}, e.g. user:{42}:a and user:{42}:b) share a slot.`,
    'edit.to',
  );
}

/** What the audit log says of an edit: the command and the escaped key name(s). */
function describe(plan: EditPlan): string {
  const names = plan.keys.map((k) => keyName(k).text).join(' -> ');
  return `${plan.command} ${names}`;
}

/**
 * One edit of one key, checked against what the view showed in one script (CONFLICT when it
 * changed), then the key's fresh metadata (a rename's: the new name's).
 */
export async function runEdit(
  target: EditTarget,
  key: Buffer,
  op: EditOp,
  readMeta: MetaReader,
  record: EditRecord = () => undefined,
): Promise<{ key: KeyRef; meta: KeyMeta }> {
  const plan = editPlan(key, op, target.can);
  if (target.cluster) requireSameSlot(plan);
  record('started', describe(plan));
  try {
    await runScript(target.client, plan.script, plan.keys, plan.args);
  } catch (e) {
    const err = editError(e, op, target.errorContext);
    record('failed', `${describe(plan)}: ${err.code}`);
    throw err;
  }
  record('ok', describe(plan));
  return { key: keyRef(plan.after), meta: await readMeta(plan.after) };
}
