import { AppError } from '../../../../app/errors';
import { parseHostPort } from '../../../../app/hostPort';
import { infoNumber } from '../../info/infoSnapshot';
import { plainSpecAt } from '../../pool/topology';
import type { MasterNode, ProfileSpec } from '../../pool/types';
import { resumeAutoSaves, suspendAutoSaves, type SaveSuspension } from '../job/autoSaves';
import { errorText } from '../job/commandRefusal';
import type { ControlLease } from '../job/controlLink';
import { dbSize } from '../job/dbOps';
import { evictedKeys } from '../job/evictionWatch';
import type { LoadLog } from '../job/loadLog';
import { readInfo, readServerFacts, type ServerFacts } from '../job/serverFacts';
import type { TargetLock } from '../job/targetLock';
import type { RawConnection } from '../../resp/rawConnection';

/** What the load holds on one master until cleanup. */
export interface Master {
  address: string;
  spec: ProfileSpec;
  lease: ControlLease;
  facts: ServerFacts;
  lock?: TargetLock;
  saves?: SaveSuspension;
  raw?: RawConnection;
}

export interface MastersInput {
  jobId: string;
  journalDir: string;
  /** A dedicated control connection to one master. */
  control(address: string): Promise<ControlLease>;
}

/**
 * The masters a cluster load has joined, at the start or met mid-load (a
 * failover, a MOVED to a new node): each one's control connection, facts,
 * saves turned off and claim, until cleanup gives them all back.
 */
export class ClusterMasters {
  private readonly joined = new Map<string, Master>();

  constructor(
    private readonly input: MastersInput,
    private readonly log: LoadLog,
  ) {}

  all(): Master[] {
    return [...this.joined.values()];
  }

  /** Control, facts and save config of one master; a master joined before is returned as it is. */
  async join(address: string, spec: ProfileSpec): Promise<Master> {
    const known = this.joined.get(address);
    if (known !== undefined) return known;
    const { input } = this;
    const lease = await input.control(address);
    const facts = await readServerFacts(lease.redis).catch(async (err: unknown) => {
      await lease.release().catch(() => undefined);
      throw err;
    });
    const m: Master = { address, spec, lease, facts };
    this.joined.set(address, m);
    if (facts.configRefused === undefined) {
      m.saves = await suspendAutoSaves(lease.redis, { journalDir: input.journalDir, host: spec.host, port: spec.port, jobId: input.jobId });
      if (m.saves.warning !== undefined) this.log.warn(`${address}: ${m.saves.warning}`);
    }
    return m;
  }

  /** DBSIZE summed over `nodes`, each joined on the way. */
  async dbSize(nodes: MasterNode[]): Promise<number> {
    const sizes = await Promise.all(nodes.map(async (m) => dbSize((await this.join(m.address, m.spec)).lease.redis, 0)));
    return sizes.reduce((a, b) => a + b, 0);
  }

  /** INFO evicted_keys of every master, against its value when the master joined (facts.evictedKeys). */
  async evictedSinceJoin(): Promise<number> {
    const grown = await Promise.all(this.all().map(async (m) => (await evictedKeys(m.lease.redis)) - m.facts.evictedKeys));
    return grown.reduce((a, b) => a + b, 0);
  }

  /** used_memory summed over the masters, for the progress events. */
  async usedMemory(): Promise<number> {
    const used = await Promise.all(this.all().map(async (m) => infoNumber((await readInfo(m.lease.redis, 'memory'))['memory']?.['used_memory'])));
    return used.reduce((a, b) => a + b, 0);
  }

  /** CLIENT KILL ID of each master's data connection: the server drops what it has not yet run of ours. */
  async stopRawClients(masters: Master[] = this.all()): Promise<void> {
    await Promise.all(
      masters.map(async (m) => {
        const id = m.raw?.clientId;
        if (id !== undefined) await m.lease.redis.client('KILL', 'ID', String(id)).catch(() => undefined);
      }),
    );
  }

  /** Every master: in-flight commands of ours killed, saves back on, claim released, connection closed. */
  async cleanup(): Promise<void> {
    const { log } = this;
    const originals: string[] = [];
    let restoredAll = true;
    await Promise.all(
      this.all().map(async (m) => {
        const redis = m.lease.redis;
        if (m.raw !== undefined) {
          m.raw.destroy();
          // CLIENT KILL ID drops whatever of ours the server still has unread (see ServerPipe.stop).
          await this.stopRawClients([m]);
        }
        if (m.saves !== undefined) {
          try {
            const r = await resumeAutoSaves(m.saves, [() => Promise.resolve(redis)]);
            if (r !== undefined) {
              originals.push(r.original);
              if (!r.restored) {
                restoredAll = false;
                log.warn(`${m.address}: automatic saves: ${r.note ?? 'not restored'}`);
              }
            }
          } catch (err) {
            restoredAll = false;
            log.warn(`${m.address}: automatic saves may still be off (${errorText(err)}); the journal restores them at the next start`);
          }
        }
        m.lock?.release();
        await m.lease.release().catch(() => undefined);
      }),
    );
    if (originals.length > 0) log.report.saveConfig = { original: [...new Set(originals)].join(' | '), restored: restoredAll };
  }
}

/** A master a MOVED named that CLUSTER NODES did not list yet: the profile's credentials at that address. */
export function specAt(template: ProfileSpec, address: string): ProfileSpec {
  const node = parseHostPort(address, 6379);
  if ('error' in node) throw new AppError('REDIS', `The cluster redirected to "${address}", which is not host:port`);
  return plainSpecAt(template, node);
}
