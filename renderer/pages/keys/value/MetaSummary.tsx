import { useEffect, useState } from 'react';
import type { KeyMeta } from '../../../../app/schemas/keys';
import { formatBytes, formatCount, formatDuration } from '../../../lib/format';

const LENGTH_OF: Record<string, string> = {
  string: 'bytes (STRLEN)',
  hash: 'fields (HLEN)',
  list: 'items (LLEN)',
  set: 'members (SCARD)',
  zset: 'members (ZCARD)',
  stream: 'entries (XLEN)',
};

/** The TTL left now, counting down from what the server said when `at` was read. */
function useTtlLeft(ttlMs: number | null, at: number): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (ttlMs === null || ttlMs < 0) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [ttlMs, at]);
  if (ttlMs === null || ttlMs < 0) return ttlMs;
  return Math.max(0, ttlMs - (now - at));
}

function ttlText(left: number | null): { value: string; sub: string } {
  if (left === null) return { value: '—', sub: 'not known' };
  if (left < 0) return { value: 'none', sub: 'no expiry' };
  if (left === 0) return { value: 'expiring', sub: 'reload to see' };
  return { value: left < 10_000 ? `${(left / 1000).toFixed(1)} s` : formatDuration(left / 1000), sub: 'counting down' };
}

/**
 * OBJECT FREQ exists only under an LFU policy and OBJECT IDLETIME only under any other: Redis
 * keeps one field per key for both. Say which is shown and why the other is not.
 */
function accessStat(meta: KeyMeta): { label: string; value: string; sub: string; why: string } {
  const policy = meta.evictionPolicy ?? 'unknown policy';
  if (meta.freq !== null)
    return {
      label: 'Access freq',
      value: formatCount(meta.freq),
      sub: 'OBJECT FREQ',
      why: `Under ${policy} Redis keeps a use counter (OBJECT FREQ); the idle time is not kept under an LFU policy.`,
    };
  if (meta.idleSeconds !== null)
    return {
      label: 'Idle',
      value: formatDuration(meta.idleSeconds),
      sub: 'OBJECT IDLETIME',
      why: `Under ${policy} Redis keeps the last access time (OBJECT IDLETIME); a use counter (OBJECT FREQ) is kept only under an LFU policy.`,
    };
  return { label: 'Access', value: '—', sub: policy, why: `Neither OBJECT FREQ nor OBJECT IDLETIME answered under ${policy}.` };
}

/** One figure: a label, its value, a short line under it; `why` is the longer reason, on hover. */
function Fact({ label, value, sub, why, testId }: { label: string; value: string; sub?: string; why?: string; testId: string }) {
  return (
    <div className="kv-fact" title={why}>
      <dt>{label}</dt>
      <dd>
        <span className="kv-fact-value" data-testid={testId}>
          {value}
        </span>
        {sub !== undefined && <span className="kv-fact-sub">{sub}</span>}
      </dd>
    </div>
  );
}

/** A key's metadata: what it is, how big, how long it lives, how recently it was used. */
export function MetaSummary({ meta, at }: { meta: KeyMeta; at: number }) {
  const ttl = ttlText(useTtlLeft(meta.ttlMs, at));
  const access = accessStat(meta);
  const type = meta.type ?? '—';
  const module = meta.type === 'other';
  return (
    <>
      <dl className="kv-meta" data-testid="kv-meta" data-type={type}>
        <Fact
          label="Type"
          value={module ? (meta.moduleType ?? 'module') : type}
          sub={module ? 'not a type this viewer reads' : undefined}
          testId="kv-meta-type"
        />
        <Fact label="Encoding" value={meta.encoding ?? '—'} testId="kv-meta-encoding" />
        {module ? (
          <Fact label="DUMP size" value={meta.dumpBytes === null ? '—' : formatBytes(meta.dumpBytes)} sub="its serialized size" testId="kv-meta-dump" />
        ) : (
          <Fact label="Length" value={meta.length === null ? '—' : formatCount(meta.length)} sub={LENGTH_OF[type]} testId="kv-meta-length" />
        )}
        <Fact label="Memory" value={meta.memory === null ? '—' : formatBytes(meta.memory)} sub="MEMORY USAGE" testId="kv-meta-memory" />
        <Fact label="TTL" value={ttl.value} sub={ttl.sub} testId="kv-meta-ttl" />
        <Fact label={access.label} value={access.value} sub={access.sub} why={access.why} testId="kv-meta-access" />
      </dl>
      <p className="hint kv-access-why" data-testid="kv-meta-access-why">
        {access.why}
      </p>
    </>
  );
}
