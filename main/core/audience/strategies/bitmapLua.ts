import { CommandRefused, int } from '../audienceLink';
import { bitmapOps } from '../bitmapOps';
import { ReplyError } from '../../resp/replyReader';
import type { Strategy } from '../strategy';
import { AUDIENCE_SCRIPT, AUDIENCE_SCRIPT_SHA } from './audienceScript';

/**
 * The whole query in one EVALSHA: one round trip, a few hundred bytes each way, and the
 * per-day BITOP/BITCOUNT never leave the server. Every key the script touches is in KEYS,
 * as a cluster needs to route it (they share a slot through the layout's hash tag).
 */
export const bitmapLua: Strategy = {
  name: 'bitmap-lua',
  layouts: ['bitmap'],
  writes: () => true,
  async run(link, env) {
    const { ops, audience, written } = bitmapOps(env.plan, env);
    const tmp = env.scratch.key('day');
    const keys: string[] = [];
    const index = new Map<string, number>();
    const at = (k: string): string => {
      let i = index.get(k);
      if (i === undefined) {
        i = keys.push(k);
        index.set(k, i);
      }
      return String(i);
    };
    const program: string[] = [String(ops.length)];
    for (const o of ops) program.push(o.op, at(o.dest), String(o.srcs.length), ...o.srcs.map(at));
    program.push(at(audience), at(tmp));
    // Days last and consecutive: the script walks them as KEYS[first + d].
    const firstDay = keys.length + 1;
    for (const day of env.days) keys.push(env.keys.active('bitmap', day));
    program.push(String(firstDay), String(env.days.length));
    // Scratch keys too, so the script can delete them whatever happens.
    const scratchFirst = keys.length + 1;
    keys.push(...written, tmp);
    const args = [String(keys.length), ...keys, String(scratchFirst), String(written.length + 1), ...program];

    let [reply] = await link.send([['EVALSHA', AUDIENCE_SCRIPT_SHA, ...args]]);
    // The first run on a server (or after SCRIPT FLUSH) sends the script itself.
    if (reply instanceof ReplyError && reply.message.startsWith('NOSCRIPT')) [reply] = await link.send([['EVAL', AUDIENCE_SCRIPT, ...args]]);
    if (reply instanceof ReplyError) throw new CommandRefused('EVALSHA', reply.message);
    if (!Array.isArray(reply)) throw new Error('the audience script returned no array');
    return { size: int(reply[0]), counts: env.days.map((_, i) => int(reply[i + 1])) };
  },
};
