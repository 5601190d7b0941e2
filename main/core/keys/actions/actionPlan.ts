import type { KeyAction, KeyActionOp, KeySelection } from '../../../../app/schemas/keyActions';
import { hashKey, lastHash, mix } from '../../resp/keyHash';
import type { RespBuilder } from '../../resp/respBuilder';
import { ACTION_SHA, type ScriptMode } from './actionScript';

/** What a run does to each matched key: the page's three actions, or the CLI's export. */
export type RunAction = KeyAction | { op: 'export' };

/**
 * The commands a run sends for a selection and an action. Without a filter, a key SCAN MATCH
 * returned is matched, and the action is a plain command (UNLINK, EXPIRE [NX], PERSIST) whose
 * 0 reply is a skip. With a filter, a check round (the script in `check` mode) decides what is
 * matched, then the script acts, re-checking the filter at that moment. Export always goes
 * through the script: DUMP and PTTL read atomically.
 */
export class ActionPlan {
  readonly filtered: boolean;
  /** The act round uses plain commands rather than the script. */
  readonly plain: boolean;
  private readonly filterArgs: string[];

  constructor(
    readonly selection: KeySelection,
    readonly action: RunAction,
    /** EXPIRE … NX exists (Redis 7.0+); else "only keys without a TTL" goes through the script's own check. */
    nxCommand: boolean,
    /** The server has hash-field expiration (COMMAND INFO): the script's "no TTL" then also checks a hash's fields. */
    private readonly fieldTtls: boolean,
  ) {
    const s = selection;
    this.filtered = s.type !== undefined || s.ttl !== 'any' || s.idleMinSeconds !== undefined || s.minMemoryBytes !== undefined;
    this.filterArgs = [s.type ?? '', s.ttl, String((s.ttlSeconds ?? 0) * 1000), String(s.idleMinSeconds ?? -1), String(s.minMemoryBytes ?? -1)];
    const needsNx = action.op === 'expire' && action.onlyNoTtl;
    this.plain = !this.filtered && action.op !== 'export' && (!needsNx || nxCommand);
  }

  get op(): KeyActionOp {
    return this.action.op;
  }

  /** The expire action's seconds for `key`: spread over ±jitterPct of them, the same for a key every time (a resumed run agrees). */
  seconds(key: Buffer): number {
    const a = this.action;
    if (a.op !== 'expire') return 0;
    if (a.jitterPct === 0) return a.seconds;
    hashKey(key, 0, key.length);
    const u = mix(lastHash.hi, lastHash.lo) / 4_294_967_296; // [0, 1)
    return Math.max(1, Math.round(a.seconds * (1 + ((2 * u - 1) * a.jitterPct) / 100)));
  }

  /** The script's ARGV for `key` in `mode` (also what a cluster retry sends). */
  scriptArgs(mode: ScriptMode, key: Buffer): string[] {
    const a = this.action;
    return [mode, ...this.filterArgs, String(this.seconds(key)), a.op === 'expire' && a.onlyNoTtl ? '1' : '0', this.fieldTtls ? '1' : '0'];
  }

  /** Append the check command for `key`. */
  check(b: RespBuilder, key: Buffer): void {
    this.script(b, 'check', key);
  }

  /** Append the act command for `key`. */
  act(b: RespBuilder, key: Buffer): void {
    const a = this.action;
    if (!this.plain) return this.script(b, a.op, key);
    if (a.op === 'delete') b.command(2).arg('UNLINK').argBytes(key, 0, key.length);
    else if (a.op === 'persist') b.command(2).arg('PERSIST').argBytes(key, 0, key.length);
    else if (a.op === 'expire') {
      b.command(a.onlyNoTtl ? 4 : 3)
        .arg('EXPIRE')
        .argBytes(key, 0, key.length)
        .argNumber(this.seconds(key));
      if (a.onlyNoTtl) b.arg('NX');
    }
  }

  private script(b: RespBuilder, mode: ScriptMode, key: Buffer): void {
    const args = this.scriptArgs(mode, key);
    b.command(4 + args.length)
      .arg('EVALSHA')
      .arg(ACTION_SHA)
      .arg('1')
      .argBytes(key, 0, key.length);
    for (const x of args) b.arg(x);
  }
}
