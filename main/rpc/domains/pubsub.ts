import { namesText, profileOverview, publishOn, shownBytes, shownMessage, subscribedText, subscriptionNames } from '../../core/pubsub';
import type { Handlers } from '../handlers';
import { auditFor, auditTrail } from './auditTrail';
import type { CoreServices } from './services';
import { connectionOf } from './sessionProfile';

type PubSubHandlers = Pick<Handlers, 'pubsub.subscribe' | 'pubsub.overview' | 'pubsub.publish'>;

/**
 * Batches already queued for delivery beyond which a tick's messages are dropped (and
 * counted) instead, as MONITOR does: the dispatcher's queue then never drops a batch
 * whose messages the viewer could not count.
 */
const MAX_BACKLOG = 4;

const shown = (b: Buffer) => shownBytes({ bytes: b, length: b.length });

/**
 * Pub/Sub as the session's connection to the profile: an analyst subscribes (and reads
 * the overview) as the profile's analyst Redis user, so its ACL decides which channels
 * they may hear; publishing is ops only (the contract's role) and on the record.
 */
export function pubsubHandlers({
  profiles,
  pool,
  metrics,
  pubsub,
  audit,
}: Pick<CoreServices, 'profiles' | 'pool' | 'metrics' | 'pubsub' | 'audit'>): PubSubHandlers {
  return {
    'pubsub.subscribe': async ({ profileId, channels, patterns, shardChannels }, sink, { session }) => {
      const names = subscriptionNames({ channels, patterns, shardChannels });
      const id = connectionOf(profiles, profileId, session);
      // Subscribing shows message payloads, as MONITOR shows values: who listened to what, and
      // for how long, is on the record (one row: its start folded into its end).
      const trail = auditFor(audit, session, 'pubsub.subscribe', `profile ${profileId}`);
      const what = subscribedText(names);
      trail('started', what);
      let stop: () => void;
      try {
        stop = await pubsub.watch(id, names, {
          plan: (nodes) =>
            sink.push({
              kind: 'plan',
              nodes: nodes.map((p) => ({
                address: p.address,
                channels: p.channels.map(shown),
                patterns: p.patterns.map(shown),
                shardChannels: p.shardChannels.map((s) => ({ name: shown(s.name), slot: s.slot })),
              })),
            }),
          messages: (b) =>
            sink.push({ kind: 'messages', messages: b.items.map(shownMessage), received: b.offered, delivered: b.delivered, dropped: b.dropped }),
          stats: (c) => sink.push({ kind: 'stats', ...c }),
          state: (address, state, message) => sink.push({ kind: 'state', address, state, ...(message === undefined ? {} : { message }) }),
          gap: (address, from, to, reason) => sink.push({ kind: 'gap', address, from, to, reason }),
          notice: (address, message) => sink.push({ kind: 'notice', address, message }),
          end: (err) => sink.end(err),
          congested: () => sink.backlog >= MAX_BACKLOG,
        });
      } catch (err) {
        trail('failed', what);
        throw err;
      }
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        stop();
        trail('ok', what);
      };
    },

    'pubsub.overview': ({ profileId, check }, { session }) =>
      profileOverview(
        { pool, discovery: metrics, hub: pubsub },
        connectionOf(profiles, profileId, session),
        check.map((c) => ({ channel: Buffer.from(c.channel, 'base64'), shard: c.shard })),
      ),

    'pubsub.publish': async ({ profileId, channel, payload, shard }, { session }) => {
      const id = connectionOf(profiles, profileId, session);
      const name = Buffer.from(channel, 'base64');
      const bytes = Buffer.from(payload, 'base64');
      const command = shard ? 'spublish' : 'publish';
      // The channel and the payload's size are on the record, never the payload itself.
      const what = `channel ${namesText([name])}`;
      const size = { n: bytes.length, unit: 'bytes' };
      const trail = auditTrail(audit, session, `pubsub.${command}`);
      trail('started', `profile ${profileId}`);
      try {
        const r = await publishOn(pool, id, name, bytes, shard);
        const receivers = { n: r.receivers, unit: r.receivers === 1 ? 'receiver' : 'receivers' };
        trail('ok', r.node, what, { figures: [size, receivers] });
        return r;
      } catch (e) {
        trail('failed', `profile ${profileId}`, `${what}: ${e instanceof Error ? e.message : String(e)}`, { figures: [size] });
        throw e;
      }
    },
  };
}
