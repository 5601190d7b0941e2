import type { Arg } from '../audienceLink';
import { int } from '../audienceLink';
import { setStores } from './sets';
import { SCRATCH_TTL_MS, type Strategy } from '../strategy';

/** Keys per ZUNIONSTORE: bounds one command's size; later chunks add into the result. */
const CHUNK = 10_000;

/**
 * The per-user zset layout: the audience's ids from the sets (SMEMBERS), then ZUNIONSTORE
 * of their `user:{id}:days` zsets with AGGREGATE SUM, so each day's score is how many of
 * them were active, read with one ZMSCORE (nil: nobody). Two round trips; the union costs
 * ~ audience × days per user, which is why it is the slow reference.
 */
export const zunionstore: Strategy = {
  name: 'zunionstore',
  layouts: ['set', 'zset'],
  writes: () => true,
  async run(link, env) {
    const { cmds, audience, written } = setStores(env);
    cmds.push(['SMEMBERS', audience]);
    const replies = await link.call(cmds);
    const members = replies[replies.length - 1];
    const ids = Array.isArray(members) ? members.map((m) => String(m)) : [];
    const union = env.scratch.key('z');
    const second: Arg[][] = [];
    for (let i = 0; i < ids.length; i += CHUNK) {
      const keys = ids.slice(i, i + CHUNK).map((id) => env.keys.userDays(id));
      // Redis computes the union before it replaces dest, so dest may be one of the inputs.
      if (i === 0) second.push(['ZUNIONSTORE', union, String(keys.length), ...keys, 'AGGREGATE', 'SUM']);
      else second.push(['ZUNIONSTORE', union, String(keys.length + 1), union, ...keys, 'AGGREGATE', 'SUM']);
    }
    if (ids.length > 0) second.push(['PEXPIRE', union, String(SCRATCH_TTL_MS)]);
    const scoresAt = second.push(['ZMSCORE', union, ...env.days]) - 1;
    second.push(['DEL', union, ...written]);
    const out = await link.call(second);
    const scores = out[scoresAt];
    const counts = Array.isArray(scores) ? scores.map(int) : env.days.map(() => 0);
    return { size: ids.length, counts };
  },
};
