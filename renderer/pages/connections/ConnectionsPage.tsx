import { useState } from 'react';
import { usePermission } from '../../auth/usePermission';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useProfiles } from '../../profiles/ProfilesContext';
import { ProfileForm } from './ProfileForm';
import { ProfileRow } from './ProfileRow';
import { filterByTag, TagFilter } from './TagFilter';
import { TransferToolbar } from './TransferToolbar';
import { useConnectionStates } from './useConnectionStates';

type Editing = { kind: 'add' } | { kind: 'edit'; id: string };

/** Connection profiles: list with live state, add/edit form, test and remove. */
export function ConnectionsPage() {
  const { profiles, loading, error, refresh } = useProfiles();
  const states = useConnectionStates();
  const [editing, setEditing] = useState<Editing>();
  const [notice, setNotice] = useState<string>();
  const [tag, setTag] = useState<string>();
  const may = usePermission('connections.add');

  const editedProfile = editing?.kind === 'edit' ? profiles.find((p) => p.id === editing.id) : undefined;
  // A tag no profile carries any more (removed, renamed) shows everything rather than nothing.
  const shownTag = tag !== undefined && filterByTag(profiles, tag).length > 0 ? tag : undefined;
  const shown = filterByTag(profiles, shownTag);

  return (
    <div className="page">
      <div className="toolbar">
        <p className="page-intro">Redis servers Cacheboard can reach. Passwords never leave the Node side.</p>
        {may.reason !== undefined && (
          <span className="hint" data-testid="connections-role-note">
            {may.reason}
          </span>
        )}
        <span className="pt-toolbar">
          <button
            type="button"
            className="btn btn-primary"
            disabled={!may.allowed}
            title={may.reason}
            data-testid="connections-add"
            onClick={() => {
              setEditing({ kind: 'add' });
              setNotice(undefined);
            }}
          >
            Add connection
          </button>
          <TransferToolbar
            profiles={profiles}
            onDone={(message, changed) => {
              setNotice(message);
              if (changed) refresh();
            }}
          />
        </span>
      </div>

      {editing && (editing.kind === 'add' || editedProfile) && (
        <ProfileForm
          key={editing.kind === 'edit' ? editing.id : 'add'}
          editing={editedProfile}
          onSaved={(p) => {
            setEditing(undefined);
            setNotice(`Saved “${p.name}”.`);
            refresh();
          }}
          onCancel={() => setEditing(undefined)}
        />
      )}

      {notice !== undefined && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <ErrorAlert error={error} title="Could not list connections:" />
      {states.error !== undefined && states.error.code !== 'DISCONNECTED' && <ErrorAlert error={states.error} title="Live connection state unavailable:" />}
      {states.dropped > 0 && <p className="hint">{states.dropped} state updates were dropped while the page was busy.</p>}

      <TagFilter profiles={profiles} value={shownTag} onChange={setTag} />
      <section className="panel profile-table" aria-label="Connection profiles">
        <div className="list-head" aria-hidden="true">
          <span className="col-state">State</span>
          <span className="col-name">Name</span>
          <span className="col-addr">Address</span>
          <span className="col-user">User</span>
          <span className="col-tls">TLS</span>
          <span className="col-source">Source</span>
          <span className="col-actions" />
        </div>
        {profiles.length === 0 ? (
          <p className="empty">{loading ? 'Loading…' : 'No connections yet. Add one to get started.'}</p>
        ) : (
          <ul className="profile-list">
            {shown.map((p) => (
              <ProfileRow
                key={p.id}
                profile={p}
                state={states.value[p.id]}
                onEdit={() => {
                  setEditing({ kind: 'edit', id: p.id });
                  setNotice(undefined);
                }}
                onRemoved={() => {
                  if (editing?.kind === 'edit' && editing.id === p.id) setEditing(undefined);
                  setNotice(`Removed “${p.name}”.`);
                  refresh();
                }}
              />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
