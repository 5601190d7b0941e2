import { useEffect, useRef, useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import type { IndexState, KeyRef } from '../../../app/schemas/keys';
import { usePermission } from '../../auth/usePermission';
import { WithProfile } from '../../components/WithProfile';
import { ActionButtons } from './actions/ActionButtons';
import type { ActionTarget, PageOp } from './actions/actionForm';
import { KeyActionsDialog } from './actions/KeyActionsDialog';
import { ExportDialog, type ExportChoices } from './export/ExportDialog';
import { FindBar, NO_FILTERS, type Filters } from './FindBar';
import { folderPath } from './folderPath';
import { FolderStats } from './FolderStats';
import { globOfFolder } from './globText';
import { IndexBar } from './IndexBar';
import { KeyList } from './KeyList';
import { NamespaceTree } from './NamespaceTree';
import { keysUrlHash, readKeysUrl, type KeysUrl } from './urlState';
import { useKeyList, type ListQuery } from './useKeyList';
import { useKeysIndex } from './useKeysIndex';
import { useLinkedProfile } from './useLinkedProfile';
import { useTreeFolders, type FolderLoad, type TreeSort } from './useTreeFolders';
import { NewKeyForm } from './value/NewKeyForm';
import { ValuePanel } from './value/ValuePanel';
import { typedBytes } from './value/valueBytes';
import '../../components/jobPage.css';
import './keys.css';

/**
 * Keys: the namespace tree of the whole DB, finding keys by name or pattern, and one key's
 * value of any type, page by page; ops edit. What is open lives in the URL, so a reload or
 * a link (`#/keys?profile=…&key=…`) opens the same folder and key.
 */
export function KeysPage() {
  const linked = useLinkedProfile();
  if (linked.pending) return <p className="empty">Opening the linked profile…</p>;
  return (
    <WithProfile purpose="browse its keys" testId="keys-no-profile">
      {(profile) => <ProfileKeys profile={profile} linkedMissing={linked.missing} />}
    </WithProfile>
  );
}

/** What the page shows, as the URL keeps it. */
interface View {
  db: number;
  separator: string;
  /** The selected folder (base64); "" is the whole DB; undefined when a typed pattern rules. */
  prefixB64: string | undefined;
  /** The list's pattern, typed escaped. */
  match: string;
  keyB64: string | undefined;
}

function viewOf(url: KeysUrl, profile: ProfileView, cluster: boolean): View {
  const mine = url.profileId === undefined || url.profileId === profile.id;
  const u = mine ? url : {};
  return {
    db: cluster ? 0 : (u.db ?? profile.db),
    separator: u.separator ?? ':',
    prefixB64: u.prefixB64 ?? (u.match === undefined ? '' : undefined),
    match: u.match ?? '*',
    keyB64: u.keyB64,
  };
}

function ProfileKeys({ profile, linkedMissing }: { profile: ProfileView; linkedMissing: string | undefined }) {
  const cluster = profile.topology?.kind === 'cluster';
  const [view, setView] = useState<View>(() => viewOf(readKeysUrl(window.location.hash), profile, cluster));
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [treeSort, setTreeSort] = useState<TreeSort>('name');
  // Bumped after an edit renamed or deleted the open key: the list reads again.
  const [edits, setEdits] = useState(0);
  // The bulk action dialog, while open: what it acts on and the action clicked.
  const [action, setAction] = useState<{ target: ActionTarget; op: PageOp }>();
  // Edits and bulk actions follow the contract's role table (the desktop app and local mode: ops), never on a read-only-data
  // profile (the server's rule, readOnlyProfile.ts); a profile from REDIS_URL or the config file is written like any other.
  const canEdit = usePermission('keys.edit').allowed && !profile.readOnlyData;
  const canAct = usePermission('keys.actions.start').allowed && !profile.readOnlyData;
  const canExport = usePermission('export.start').allowed;
  const [exporting, setExporting] = useState(false);

  const where = { profileId: profile.id, db: view.db, separator: view.separator };
  const index = useKeysIndex(where);
  const folders = useTreeFolders(where, treeSort, index.epoch, view.prefixB64 === undefined ? [] : folderPath(view.prefixB64, view.separator));
  const pattern = typedBytes(view.match);
  const deepReady = index.state?.deep === true && index.state.status === 'ready';
  const needsDeep = filters.sort !== 'name' && !deepReady;
  const query: ListQuery | undefined =
    !pattern.ok || pattern.b64 === '' || needsDeep
      ? undefined
      : { ...where, match: pattern.b64, type: filters.type, noTtl: filters.noTtl, sort: filters.sort, order: filters.order };
  const list = useKeyList(query, `${index.builds}|${edits}`);

  // The hash the page last wrote or adopted. One that differs was set since (a link followed,
  // a test's navigation) and its hashchange, still queued, will adopt it: writing this view
  // over it would lose the newer one (a delete's answer closing the panel raced a link).
  const syncedHash = useRef(window.location.hash);

  // The URL follows the page (replaceState: no history entry per click, no hashchange).
  useEffect(() => {
    const hash = keysUrlHash({
      profileId: profile.id,
      db: view.db,
      separator: view.separator === ':' ? undefined : view.separator,
      prefixB64: view.prefixB64 === '' ? undefined : view.prefixB64,
      match: view.match === '*' ? undefined : view.match,
      keyB64: view.keyB64,
    });
    if (window.location.hash !== syncedHash.current) return;
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
    syncedHash.current = hash;
  }, [profile.id, view]);

  // A link followed while the page is open (typed in the address bar, another page's link).
  useEffect(() => {
    const onHash = () => {
      syncedHash.current = window.location.hash;
      const url = readKeysUrl(window.location.hash);
      if (url.profileId === undefined || url.profileId === profile.id) setView(viewOf(url, profile, cluster));
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [profile, cluster]);

  const patch = (p: Partial<View>) => setView((v) => ({ ...v, ...p }));
  const openKey = view.keyB64;
  const folderRef = selectedFolder(folders.loads, view.prefixB64);
  // Ops on a writable profile act on a folder of the tree (its glob alone) or on the list (its glob and filters).
  const folderTarget: ActionTarget | undefined =
    canAct && view.prefixB64 !== undefined && pattern.ok
      ? { source: 'folder', match: view.match, matchB64: pattern.b64, type: undefined, noTtl: false }
      : undefined;
  const listTarget: ActionTarget | undefined =
    canAct && query !== undefined ? { source: 'list', match: view.match, matchB64: query.match, type: filters.type, noTtl: filters.noTtl } : undefined;

  return (
    <div className="page keys-page" data-testid="keys-page">
      {linkedMissing !== undefined && (
        <p className="alert alert-error" role="alert">
          The link names a profile that is not here ({linkedMissing}); showing {profile.name} instead.
        </p>
      )}
      <IndexBar
        db={view.db}
        onDb={(db) => patch({ db, prefixB64: '', match: '*', keyB64: undefined })}
        cluster={cluster}
        separator={view.separator}
        onSeparator={(separator) => patch({ separator, prefixB64: '', match: '*' })}
        index={index}
      />
      <div className="keys-grid">
        <NamespaceTree
          folders={folders}
          sort={treeSort}
          onSort={setTreeSort}
          selected={view.prefixB64}
          openKey={view.keyB64}
          onFolder={(node) =>
            node === undefined ? patch({ prefixB64: '', match: '*' }) : patch({ prefixB64: node.ref.b64, match: globOfFolder(node.ref.text) })
          }
          onKey={(node) => patch({ keyB64: node.ref.b64 })}
          total={allKeys(index.state, folders.loads[''])}
          separator={view.separator}
          scanning={index.runningJobId !== undefined}
          actions={
            folderTarget !== undefined && (
              <div className="ka-bar ka-bar-tree">
                <span className="mono ka-bar-what" title={folderTarget.match}>
                  {folderTarget.match}
                </span>
                <ActionButtons what={folderTarget.match} onAction={(op) => setAction({ target: folderTarget, op })} testIdPrefix="ka-folder" />
              </div>
            )
          }
        />
        <section className="panel keys-middle" aria-label="Keys">
          <FindBar
            pattern={view.match}
            onPattern={(match) => patch({ match, prefixB64: undefined })}
            filters={filters}
            onFilters={setFilters}
            onOpen={(keyB64) => patch({ keyB64 })}
            onNew={canEdit ? () => patch({ keyB64: undefined }) : undefined}
          />
          {canExport && (
            <div className="keys-export-bar">
              <button type="button" className="btn btn-small" onClick={() => setExporting(true)} data-testid="export-open">
                Export…
              </button>
            </div>
          )}
          {folderRef !== undefined && <FolderStats where={where} folder={folderRef} />}
          {!pattern.ok && <p className="field-error">The pattern from the link cannot be read: {pattern.error}</p>}
          <KeyList
            list={query === undefined ? undefined : list}
            openKey={view.keyB64}
            onKey={(k) => patch({ keyB64: k.key.b64 })}
            filters={filters}
            onFilters={setFilters}
            actions={
              listTarget !== undefined && (
                <div className="ka-bar ka-bar-list">
                  <span className="muted">Every key the list matches:</span>
                  <ActionButtons
                    what={`the keys listed by ${listTarget.match}`}
                    onAction={(op) => setAction({ target: listTarget, op })}
                    testIdPrefix="ka-list"
                  />
                </div>
              )
            }
            blocked={
              needsDeep ? (
                <div className="keys-deep-note" data-testid="keys-needs-deep">
                  <p>
                    Sorting by {filters.sort === 'ttl' ? 'TTL' : 'memory'} needs the deep index: type, TTL and MEMORY USAGE of every key, gathered by a scan
                    paced like the tree&apos;s.
                  </p>
                  <button
                    type="button"
                    className="btn btn-small"
                    onClick={() => void index.start(true)}
                    disabled={index.runningJobId !== undefined || index.starting}
                  >
                    Build deep index
                  </button>
                </div>
              ) : undefined
            }
          />
        </section>
        <div className="keys-value-col" data-testid="keys-open" data-key={view.keyB64 ?? ''} data-can-edit={canEdit}>
          {view.keyB64 === undefined ? (
            <>
              <p className="panel empty keys-pick">Pick a key in the tree or the list, or open one by its exact name.</p>
              {/* Ops make keys here: a new key opens once made (the list reads again to show it). */}
              {canEdit && (
                <NewKeyForm
                  profileId={profile.id}
                  db={view.db}
                  onCreated={(keyB64) => {
                    patch({ keyB64 });
                    setEdits((n) => n + 1);
                  }}
                />
              )}
            </>
          ) : (
            <ValuePanel
              key={view.keyB64}
              profile={profile}
              db={view.db}
              keyB64={view.keyB64}
              canEdit={canEdit}
              onKeyChanged={(next) => {
                // Only while that key is still the open one: a rename or delete answered after
                // another key was opened (a link, the list) must not close the newer one.
                setView((v) => (v.keyB64 === openKey ? { ...v, keyB64: next ?? undefined } : v));
                setEdits((n) => n + 1);
              }}
            />
          )}
        </div>
      </div>
      {exporting && <ExportDialog profile={profile} db={view.db} choices={exportChoices(view, folderRef, query)} onClose={() => setExporting(false)} />}
      {action !== undefined && (
        <KeyActionsDialog
          profile={profile}
          db={view.db}
          target={action.target}
          op={action.op}
          onClose={(ended) => {
            setAction(undefined);
            if (ended === undefined || ended.acted === 0) return;
            // The list reads again; the server takes a delete's keys out of the index (no new scan), saying so meanwhile.
            setEdits((n) => n + 1);
            if (ended.op === 'delete') index.reload();
          }}
        />
      )}
    </div>
  );
}

/**
 * Keys in the whole DB as the page last heard: the scan's count, or the root folders' sum when
 * a tree page read after the last progress event is ahead of it (a parent never shows fewer
 * keys than its child while the scan grows).
 */
function allKeys(state: IndexState | undefined, root: FolderLoad | undefined): number | undefined {
  if (state === undefined || state.status === 'none') return undefined;
  const rootSum = root?.nodes.reduce((a, n) => a + n.count, 0) ?? 0;
  return Math.max(state.scanned, rootSum);
}

/** The selected folder's name, from whichever loaded page holds it (undefined for the whole DB or a typed pattern). */
function selectedFolder(loads: Record<string, FolderLoad>, prefixB64: string | undefined): KeyRef | undefined {
  if (prefixB64 === undefined || prefixB64 === '') return undefined;
  for (const l of Object.values(loads)) {
    const node = l.nodes.find((n) => n.kind === 'folder' && n.ref.b64 === prefixB64);
    if (node !== undefined) return node.ref;
  }
  return undefined;
}

/** What the Export dialog offers: the selected folder (or the whole DB), the list's glob, the open key. */
function exportChoices(view: View, folder: KeyRef | undefined, query: ListQuery | undefined): ExportChoices {
  const text = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0)));
  return {
    ...(view.prefixB64 === undefined
      ? {}
      : {
          folder: {
            prefixB64: view.prefixB64,
            label: view.prefixB64 === '' ? '(every key of the DB)' : (folder?.text ?? text(view.prefixB64)),
            count: undefined,
          },
        }),
    ...(query === undefined ? {} : { pattern: { matchB64: query.match, label: view.match } }),
    ...(view.keyB64 === undefined ? {} : { key: { keyB64: view.keyB64, label: text(view.keyB64) } }),
  };
}
