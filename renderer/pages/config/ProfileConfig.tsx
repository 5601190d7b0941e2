import { useMemo, useState } from 'react';
import { readOnlyDataText } from '../../../app/readOnlyData';
import type { ProfileView } from '../../../app/schemas/connections';
import { usePermission } from '../../auth/usePermission';
import { useCall } from '../../bridge/useCall';
import { ErrorAlert } from '../../components/ErrorAlert';
import { clock } from '../../lib/display';
import { formatCount } from '../../lib/format';
import { ColumnPicker } from './ColumnPicker';
import { ConfigTable } from './ConfigTable';
import { defaultColumns, diffCounts, MAX_COLUMNS, sections } from './configModel';
import { RefusalNote } from './RefusalNote';
import { useRewrite } from './useRewrite';

/** The Config page of one profile: read on open and on Refresh (a setting seldom changes on its own). */
export function ProfileConfig({ profile }: { profile: ProfileView }) {
  const res = useCall('config.get', { profileId: profile.id });
  const mayEdit = usePermission('config.set');
  // As the server rules (readOnlyProfile.ts): a read-only-data profile's settings are shown, not changed.
  const editable = mayEdit.allowed && !profile.readOnlyData;
  const [query, setQuery] = useState('');
  const [diffsOnly, setDiffsOnly] = useState(false);
  const [picked, setPicked] = useState<string[]>();
  const [editing, setEditing] = useState<string>();
  const rewrite = useRewrite(profile.id);

  const view = res.data;
  const nodes = useMemo(() => view?.nodes ?? [], [view]);
  const chosen = picked ?? defaultColumns(nodes);
  const columns = nodes.flatMap((n, i) => (chosen.includes(n.address) ? [i] : []));
  const shown = useMemo(() => sections(view?.params ?? [], { query, diffsOnly, keep: editing }, columns), [view, query, diffsOnly, editing, columns.join(',')]);
  const counts = diffCounts(view?.params ?? []);
  const shownCount = shown.reduce((n, s) => n + s.params.length, 0);
  const everyHasFile = nodes.length > 1 && nodes.every((n) => n.configFile !== undefined && n.configFile !== '');

  return (
    <div className="page cfg-page">
      <div className="toolbar">
        <p className="page-intro">
          <strong>{profile.name}</strong> · CONFIG GET * of {nodes.length === 1 ? 'its node' : `its ${formatCount(nodes.length)} nodes`}, side by side;
          differences between a replica and its master, or between the masters of a cluster, are marked with the reason
          {view !== undefined && <span className="muted"> · read at {clock(view.readAt)}</span>}
        </p>
        <button type="button" className="btn" onClick={res.refresh} disabled={res.loading} data-testid="config-refresh">
          Refresh
        </button>
      </div>
      <ErrorAlert error={res.error} title={`Cannot read the configuration of ${profile.name}:`} />
      {view?.refusal !== undefined && <RefusalNote refusal={view.refusal} />}
      {!mayEdit.allowed && (
        <p className="muted cfg-note" data-testid="config-readonly-note">
          Changing settings: {mayEdit.reason}
        </p>
      )}
      {mayEdit.allowed && profile.readOnlyData && (
        <p className="muted cfg-note" data-testid="config-readonly-note">
          {readOnlyDataText(profile, { refused: 'its settings are shown, not changed', instead: 'change its settings' })}
        </p>
      )}
      {view === undefined ? (
        res.error === undefined && <p className="empty">Reading the configuration…</p>
      ) : (
        <>
          <div className="panel cfg-controls">
            <input
              type="search"
              className="cfg-search"
              placeholder="Search names and values"
              aria-label="Search the parameters by name or value"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              data-testid="config-search"
            />
            <label className="cfg-toggle">
              <input type="checkbox" checked={diffsOnly} onChange={(e) => setDiffsOnly(e.target.checked)} data-testid="config-diffs-only" />
              Differences only
            </label>
            <span className="muted" data-testid="config-counts">
              {formatCount(shownCount)} of {formatCount(view.params.length)} parameters · {formatCount(counts.differ)} differ between nodes,{' '}
              {formatCount(counts.matter)} in a way that matters
            </span>
            {editable && everyHasFile && (
              <button type="button" className="btn" disabled={rewrite.running} onClick={() => rewrite.run(undefined)} data-testid="config-rewrite-every">
                Rewrite every node's file
              </button>
            )}
          </div>
          {nodes.length > MAX_COLUMNS && <ColumnPicker nodes={nodes} picked={chosen} onPick={setPicked} />}
          {view.nodesLeftOut !== undefined && (
            <p className="hint">{formatCount(view.nodesLeftOut)} more nodes were not read: a read covers the first 64 the servers list.</p>
          )}
          <ErrorAlert error={rewrite.error} title="CONFIG REWRITE:" />
          {rewrite.results !== undefined && (
            <ul className="panel cfg-results" data-testid="config-rewrite-results" aria-live="polite">
              {rewrite.results.map((r) => (
                <li key={r.address} className={r.ok ? 'cfg-ok' : 'cfg-failed'} data-address={r.address} data-ok={r.ok}>
                  <span className="mono">{r.address}</span> {r.ok ? `✓ rewrote ${r.configFile ?? 'its config file'}` : `✗ ${r.error?.message ?? 'failed'}`}
                </li>
              ))}
            </ul>
          )}
          {view.params.length > 0 &&
            (shown.length === 0 ? (
              <p className="empty" data-testid="config-none">
                {diffsOnly ? 'No parameter differs between the nodes shown' : 'No parameter matches'}
                {query.trim() === '' ? '.' : ` “${query.trim()}”.`}
              </p>
            ) : (
              <ConfigTable
                profileId={profile.id}
                sections={shown}
                nodes={nodes}
                columns={columns}
                editable={editable && nodes.some((n) => n.state === 'ok')}
                editing={editing}
                onEdit={setEditing}
                onChanged={res.refresh}
                onRewrite={(a) => rewrite.run(a)}
                rewriting={rewrite.running}
              />
            ))}
        </>
      )}
    </div>
  );
}
