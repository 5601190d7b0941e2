import { useMemo, useState } from 'react';
import { MAX_EDIT_BYTES } from '../../../../app/schemas/keys';
import { DownloadButton } from '../../../components/DownloadButton';
import { Segmented } from '../../../components/Segmented';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatBytes } from '../../../lib/format';
import { DecodedView } from './DecodedView';
import { EscapedField, allTyped } from '../../../components/EscapedField';
import { HexView } from '../../../components/bytes/HexView';
import { JsonView } from '../../../components/bytes/JsonView';
import { TextRows } from '../../../components/bytes/TextRows';
import { useStringPages } from './useStringPages';
import { jsonSyntaxError } from './jsonSyntax';
import { base64ToBytes, concatBytes, sha1Hex } from './valueBytes';
import type { ViewProps } from './viewProps';

type View = 'text' | 'json' | 'hex' | 'decoded';
const VIEWS: { value: View; label: string }[] = [
  { value: 'text', label: 'Text' },
  { value: 'json', label: 'JSON' },
  { value: 'hex', label: 'Hex' },
  { value: 'decoded', label: 'Decoded' },
];

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Why bytes saved from the JSON view are not JSON (where, for a person to fix), or undefined when they are. */
function jsonRefusal(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return 'Not valid JSON: the value is not UTF-8 text';
  }
  return jsonSyntaxError(text)?.message;
}

/** A string: its first 256 KB and more on demand, as text, JSON, hex or decoded; a streamed download; ops set or append. */
export function StringView({ where, canEdit, edit, version, fileName }: ViewProps & { fileName: string }) {
  const s = useStringPages(where, version);
  const [view, setView] = useState<View>('text');
  const bytes = useMemo(() => concatBytes(s.pages.map((p) => p.bytes)), [s.pages]);
  const text = useMemo(() => s.pages.map((p) => p.text).join(''), [s.pages]);
  const whole = s.total !== undefined && s.loaded >= s.total;
  const [editing, setEditing] = useState<string>();
  /** The bytes shown when editing began: what the set expects to replace, whatever is read since. */
  const [editBase, setEditBase] = useState<Uint8Array>();
  /** Why the last save from the JSON view was refused (not JSON, and where). */
  const [jsonError, setJsonError] = useState<string>();
  // A new version (an edit landed, or Reload): a form filled from the old rows would expect stale values.
  const [seenVersion, setSeenVersion] = useState(version);
  if (seenVersion !== version) {
    setSeenVersion(version);
    setEditing(undefined);
    setJsonError(undefined);
  }
  const [append, setAppend] = useState('');
  const typedSet = editing === undefined ? undefined : allTyped(editing);
  const typedAppend = allTyped(append);

  async function save() {
    if (typedSet === undefined) return;
    // From the JSON view a save must be JSON: a stray comma would otherwise land in a value
    // every reader parses. The text view saves any bytes (switch to it to save this as text).
    const notJson = view === 'json' ? jsonRefusal(base64ToBytes(typedSet[0] as string)) : undefined;
    setJsonError(notJson);
    if (notJson !== undefined) return;
    // What the view showed, hashed: the server refuses the set if the value is no longer that.
    if (editBase === undefined) return;
    const expectSha1 = await sha1Hex(editBase);
    const d = await edit.run({ op: 'string.set', value: typedSet[0] as string, expectSha1 });
    if (d !== undefined) setEditing(undefined);
  }

  return (
    <div className="kv-view" data-testid="kv-string" data-view={view}>
      <div className="kv-view-bar">
        <Segmented label="View as" value={view} onChange={setView} options={VIEWS} testId="kv-string-view" />
        <span className="muted" data-testid="kv-string-loaded">
          {s.total === undefined ? 'Loading…' : `${formatBytes(s.loaded)} of ${formatBytes(s.total)} loaded`}
        </span>
        {!whole && s.total !== undefined && (
          <button type="button" className="btn btn-small" disabled={s.loading} onClick={s.loadMore} data-testid="kv-load-more">
            {s.loading ? 'Loading…' : `Load ${formatBytes(Math.min(256 * 1024, s.total - s.loaded))} more`}
          </button>
        )}
        <span className="kv-spacer" />
        <DownloadButton source={{ stream: 'keys.download', input: where }} fileName={fileName} />
      </div>
      <ErrorAlert error={s.error} title="Could not read:" />
      {canEdit && s.total !== undefined && (
        <div className="kv-string-edit">
          {editing === undefined ? (
            <div className="form-actions">
              <button
                type="button"
                className="btn btn-small"
                disabled={!whole || s.total > MAX_EDIT_BYTES}
                title={!whole ? 'Load the whole value first: a set replaces what you can see' : s.total > MAX_EDIT_BYTES ? 'Too big to edit here' : undefined}
                onClick={() => {
                  setEditBase(bytes);
                  setEditing(text);
                }}
                data-testid="kv-string-edit"
              >
                Edit value
              </button>
              <form
                className="kv-form kv-inline-form"
                onSubmit={(e) => {
                  e.preventDefault();
                  if (typedAppend && s.total !== undefined)
                    void edit.run({ op: 'string.append', value: typedAppend[0] as string }).then((d) => d !== undefined && setAppend(''));
                }}
              >
                <EscapedField label="Append" value={append} onChange={setAppend} testId="kv-string-append-value" className="kv-grow" />
                <button type="submit" className="btn btn-small" disabled={edit.busy || !typedAppend || append === ''} data-testid="kv-string-append">
                  Append
                </button>
              </form>
            </div>
          ) : (
            <form
              className="kv-form kv-string-form"
              onSubmit={(e) => {
                e.preventDefault();
                void save();
              }}
            >
              <EscapedField
                label="Value (escapes: \xHH, \n, \\)"
                value={editing}
                onChange={(v) => {
                  setEditing(v);
                  setJsonError(undefined);
                }}
                multiline
                testId="kv-string-value"
                className="kv-grow"
              />
              {jsonError !== undefined && view === 'json' && (
                <div className="alert alert-error" role="alert" data-testid="kv-json-invalid">
                  {jsonError}. Not saved: fix it, or switch to the Text view to save it as plain text.
                </div>
              )}
              <div className="form-actions">
                <button type="submit" className="btn btn-small btn-primary" disabled={edit.busy || typedSet === undefined} data-testid="kv-string-save">
                  Save value
                </button>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => {
                    setEditing(undefined);
                    setJsonError(undefined);
                  }}
                >
                  Cancel
                </button>
              </div>
            </form>
          )}
        </div>
      )}
      {s.total !== undefined && view === 'text' && <TextRows text={text} testId="kv-text" label="Value as text" />}
      {s.total !== undefined && view === 'json' && <JsonView bytes={bytes} total={s.total} />}
      {s.total !== undefined && view === 'hex' && <HexView bytes={bytes} />}
      {view === 'decoded' && <DecodedView where={where} version={version} key={version} />}
    </div>
  );
}
