import { useEffect, useState } from 'react';
import type { KeyMeta } from '../../../../app/schemas/keys';
import { Stat } from '../../../components/Stat';
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
  if (left < 0) return { value: 'none', sub: 'persists until deleted' };
  if (left === 0) return { value: 'expiring', sub: 'reload to see whether it is gone' };
  return { value: left < 10_000 ? `${(left / 1000).toFixed(1)} s` : formatDuration(left / 1000), sub: 'counting down' };
}

/**
 * OBJECT FREQ exists only under an LFU policy and OBJECT IDLETIME only under any other: Redis
 * keeps one field per key for both. Say which is shown and why the other is not.
 */
function accessStat(meta: KeyMeta): { label: string; value: string; sub: string } {
  const policy = meta.evictionPolicy ?? 'unknown policy';
  if (meta.freq !== null) return { label: 'Access freq', value: formatCount(meta.freq), sub: `OBJECT FREQ under ${policy}; idle time is not kept under LFU` };
  if (meta.idleSeconds !== null) return { label: 'Idle', value: formatDuration(meta.idleSeconds), sub: `OBJECT IDLETIME under ${policy}; frequency is kept only under an LFU policy` };
  return { label: 'Access', value: '—', sub: `neither OBJECT FREQ nor IDLETIME answered (${policy})` };
}

/** A key's metadata: what it is, how big, how long it lives, how recently it was used. */
export function MetaSummary({ meta, at }: { meta: KeyMeta; at: number }) {
  const ttl = ttlText(useTtlLeft(meta.ttlMs, at));
  const access = accessStat(meta);
  const type = meta.type ?? '—';
  const module = meta.type === 'other';
  return (
    <dl className="stat-grid kv-meta" data-testid="kv-meta" data-type={type}>
      <Stat label="Type" value={module ? (meta.moduleType ?? 'module') : type} sub={module ? 'module type' : undefined} testId="kv-meta-type" />
      <Stat label="Encoding" value={meta.encoding ?? '—'} testId="kv-meta-encoding" />
      {module ? (
        <Stat label="DUMP size" value={meta.dumpBytes === null ? '—' : formatBytes(meta.dumpBytes)} sub="a module's value is read only by its module" testId="kv-meta-dump" />
      ) : (
        <Stat label="Length" value={meta.length === null ? '—' : formatCount(meta.length)} sub={LENGTH_OF[type]} testId="kv-meta-length" />
      )}
      <Stat label="Memory" value={meta.memory === null ? '—' : formatBytes(meta.memory)} sub="MEMORY USAGE" testId="kv-meta-memory" />
      <Stat label="TTL" value={ttl.value} sub={ttl.sub} testId="kv-meta-ttl" />
      <Stat label={access.label} value={access.value} sub={access.sub} testId="kv-meta-access" />
    </dl>
  );
}
