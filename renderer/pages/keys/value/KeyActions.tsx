import { useState } from 'react';
import type { Edit } from './useEdit';
import { EscapedField } from '../../../components/EscapedField';
import { typedBytes } from './valueBytes';

interface Props {
  edit: Edit;
  /** The key's name as shown (escaped), to prefill the rename. */
  keyText: string;
  hasTtl: boolean;
}

type Open = 'none' | 'ttl' | 'rename' | 'delete';

/** What any key can have done to it: TTL set or removed, a rename, a delete; each behind its own small form. */
export function KeyActions({ edit, keyText, hasTtl }: Props) {
  const [open, setOpen] = useState<Open>('none');
  const [ttl, setTtl] = useState('');
  const [to, setTo] = useState(keyText);
  const [overwrite, setOverwrite] = useState(false);
  const [confirmOverwrite, setConfirmOverwrite] = useState(false);
  const toggle = (o: Open) => {
    edit.clear();
    setOpen((cur) => (cur === o ? 'none' : o));
    setConfirmOverwrite(false);
  };
  const ttlSeconds = /^\d+$/.test(ttl.trim()) ? Number(ttl.trim()) : NaN;
  const target = typedBytes(to);

  async function rename() {
    if (!target.ok) return;
    if (overwrite && !confirmOverwrite) {
      setConfirmOverwrite(true);
      return;
    }
    const done = await edit.run({ op: 'rename', to: target.b64, overwrite });
    if (done !== undefined) setOpen('none');
  }

  return (
    <div className="kv-actions" data-testid="kv-actions">
      <div className="form-actions">
        <button type="button" className="btn btn-small" aria-expanded={open === 'ttl'} onClick={() => toggle('ttl')} data-testid="kv-ttl-open">
          TTL…
        </button>
        {hasTtl && (
          <button type="button" className="btn btn-small" disabled={edit.busy} onClick={() => void edit.run({ op: 'ttl.remove' })} data-testid="kv-ttl-remove">
            Remove TTL
          </button>
        )}
        <button type="button" className="btn btn-small" aria-expanded={open === 'rename'} onClick={() => toggle('rename')} data-testid="kv-rename-open">
          Rename…
        </button>
        <button
          type="button"
          className="btn btn-small btn-danger-ghost"
          aria-expanded={open === 'delete'}
          onClick={() => toggle('delete')}
          data-testid="kv-delete-open"
        >
          Delete…
        </button>
      </div>
      {open === 'ttl' && (
        <form
          className="kv-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (ttlSeconds >= 1) void edit.run({ op: 'ttl.set', ttlSeconds }).then((d) => d !== undefined && setOpen('none'));
          }}
        >
          <div className="field">
            <label htmlFor="kv-ttl-input">Expire in (seconds)</label>
            <input id="kv-ttl-input" type="text" inputMode="numeric" value={ttl} onChange={(e) => setTtl(e.target.value)} data-testid="kv-ttl-input" />
            {ttl !== '' && !(ttlSeconds >= 1) && <span className="field-error">a whole number of seconds, 1 or more</span>}
          </div>
          <button type="submit" className="btn btn-small btn-primary" disabled={edit.busy || !(ttlSeconds >= 1)} data-testid="kv-ttl-save">
            Set TTL
          </button>
        </form>
      )}
      {open === 'rename' && (
        <form
          className="kv-form"
          onSubmit={(e) => {
            e.preventDefault();
            void rename();
          }}
        >
          <EscapedField
            label="New name"
            value={to}
            onChange={(v) => {
              setTo(v);
              setConfirmOverwrite(false);
            }}
            testId="kv-rename-to"
            className="kv-grow"
          />
          <label className="kv-check">
            <input
              type="checkbox"
              checked={overwrite}
              onChange={(e) => {
                setOverwrite(e.target.checked);
                setConfirmOverwrite(false);
              }}
              data-testid="kv-rename-overwrite"
            />
            overwrite if it exists
          </label>
          <button
            type="submit"
            className="btn btn-small btn-primary"
            disabled={edit.busy || !target.ok || (target.ok && target.bytes === 0)}
            data-testid="kv-rename-save"
          >
            Rename
          </button>
          {confirmOverwrite && (
            <div className="confirm" role="group" aria-label="Confirm overwriting">
              <span>A key already named so will be replaced (RENAME). Sure?</span>
              <button type="submit" className="btn btn-small btn-danger" data-testid="kv-rename-confirm">
                Rename and overwrite
              </button>
              <button type="button" className="btn btn-small" onClick={() => setConfirmOverwrite(false)}>
                Cancel
              </button>
            </div>
          )}
        </form>
      )}
      {open === 'delete' && (
        <div className="confirm" role="group" aria-label="Confirm delete">
          <span>Delete this key (UNLINK)? It cannot be undone.</span>
          <button
            type="button"
            className="btn btn-small btn-danger"
            disabled={edit.busy}
            onClick={() => void edit.run({ op: 'delete' })}
            data-testid="kv-delete-confirm"
          >
            Delete key
          </button>
          <button type="button" className="btn btn-small" onClick={() => setOpen('none')}>
            Cancel
          </button>
        </div>
      )}
    </div>
  );
}
