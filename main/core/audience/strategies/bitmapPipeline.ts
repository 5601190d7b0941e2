import { int } from '../audienceLink';
import { bitmapOps } from '../bitmapOps';
import { SCRATCH_TTL_MS, type Strategy } from '../strategy';

/**
 * BITOP the audience into a scratch bitmap, BITCOUNT it, then per day BITOP AND with the
 * day's bitmap and BITCOUNT, and DEL: every command in one pipeline, so one round trip;
 * the replies are read after the last one. Commands run in order on one connection, so
 * one temporary key serves every day.
 */
export const bitmapPipeline: Strategy = {
  name: 'bitmap-pipeline',
  layouts: ['bitmap'],
  writes: () => true,
  async run(link, env) {
    const { ops, audience, written } = bitmapOps(env.plan, env);
    const tmp = env.scratch.key('day');
    const cmds: string[][] = ops.map((o) => ['BITOP', o.op, o.dest, ...o.srcs]);
    for (const k of written) cmds.push(['PEXPIRE', k, String(SCRATCH_TTL_MS)]);
    const sizeAt = cmds.push(['BITCOUNT', audience]) - 1;
    const firstDay = cmds.length;
    for (const day of env.days) cmds.push(['BITOP', 'AND', tmp, audience, env.keys.active('bitmap', day)], ['BITCOUNT', tmp]);
    cmds.push(['DEL', tmp, ...written]);
    const replies = await link.call(cmds);
    return { size: int(replies[sizeAt]), counts: env.days.map((_, i) => int(replies[firstDay + 2 * i + 1])) };
  },
};
