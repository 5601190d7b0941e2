import { useState } from 'react';
import type { CallOutput } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import type { KeyRef } from '../../../app/schemas/keys';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatBytes, formatCount, formatPercent } from '../../lib/format';
import { plural } from '../../lib/plural';
import { TYPE_COLORS } from '../../lib/typeColors';
import { KeyText } from '../../components/KeyText';
import type { IndexWhere } from './useKeysIndex';

type Stats = CallOutput<'keys.folderStats'>;

/** Keys sampled per folder: enough for a type mix within a few percent, quick on any server. */
const SAMPLES = 500;

/** A folder's type mix and memory, from a sample of its keys, on demand. */
export function FolderStats({ where, folder }: { where: IndexWhere; folder: KeyRef }) {
  const bridge = useBridge();
  const [state, setState] = useState<{ for: string; stats?: Stats; error?: AppError; loading: boolean }>();
  const mine = state?.for === folder.b64 ? state : undefined;

  const load = () => {
    const f = folder.b64;
    setState({ for: f, loading: true });
    bridge.invoke('keys.folderStats', { ...where, prefix: f, samples: SAMPLES }).then(
      (stats) => setState((s) => (s?.for === f ? { for: f, stats, loading: false } : s)),
      (e: unknown) => setState((s) => (s?.for === f ? { for: f, error: toAppError(e), loading: false } : s)),
    );
  };

  const st = mine?.stats;
  return (
    <div className="keys-stats" data-testid="keys-folder-stats">
      <div className="keys-stats-head">
        <span className="muted">Folder</span>
        <KeyText name={folder} />
        <button type="button" className="btn btn-small" onClick={load} disabled={mine?.loading === true} data-testid="keys-stats">
          {mine?.loading === true ? 'Sampling…' : st === undefined ? 'Stats' : 'Sample again'}
        </button>
      </div>
      <ErrorAlert error={mine?.error} title="Cannot sample the folder:" />
      {st !== undefined && <StatsView stats={st} />}
    </div>
  );
}

function StatsView({ stats }: { stats: Stats }) {
  const total = stats.types.reduce((a, t) => a + t.count, 0);
  const m = stats.memory;
  return (
    <div className="keys-stats-body">
      <div className="keys-typebar" role="img" aria-label={stats.types.map((t) => `${t.type} ${formatPercent(t.count / Math.max(1, total))}`).join(', ')}>
        {stats.types.map((t) => (
          <span
            key={t.type}
            style={{ flexGrow: t.count, background: TYPE_COLORS[t.type] }}
            title={`${t.type}: ${formatCount(t.count)} of ${formatCount(total)} sampled`}
          />
        ))}
      </div>
      <ul className="keys-typelegend">
        {stats.types.map((t) => (
          <li key={t.type} data-type={t.type}>
            <span className="keys-swatch" style={{ background: TYPE_COLORS[t.type] }} aria-hidden="true" />
            {t.type} <span className="muted">{formatPercent(t.count / Math.max(1, total))}</span>
          </li>
        ))}
      </ul>
      <p className="keys-stats-memory">
        <strong data-testid="keys-stats-memory">≈ {formatBytes(m.estimate)}</strong>{' '}
        <span className="muted">
          {stats.sampled >= stats.count
            ? `every one of its ${plural(stats.count, 'key')} measured`
            : `(95 %: ${formatBytes(m.ciLow)} – ${formatBytes(m.ciHigh)}) over ${plural(stats.count, 'key')}, from ${formatCount(stats.sampled)} sampled`}
        </span>
      </p>
    </div>
  );
}
