import { useId, useState } from 'react';
import type { ConfigNode, ConfigParam, ConfigSetResult } from '../../../app/schemas/config';
import { useBridge } from '../../bridge/BridgeContext';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FieldError } from '../../components/FieldError';
import { roleLabel } from '../../lib/nodes';
import { useStart } from '../../lib/useStart';
import { setOutcome } from './configModel';

type Control = 'value' | 'target';

const controlOf = (field: string | undefined): Control | undefined =>
  field === 'value' ? 'value' : field?.startsWith('target') === true ? 'target' : undefined;

interface Props {
  profileId: string;
  param: ConfigParam;
  nodes: readonly ConfigNode[];
  /** The value to start from: the first shown node's (never a secret's, which the page does not have). */
  initial: string;
  onDone(): void;
  onClose(): void;
}

/**
 * CONFIG SET of one parameter on one node or every node. Redis validates: each node's answer
 * (its value before and after, or its refusal in its own words) is listed under the form.
 */
export function EditForm({ profileId, param, nodes, initial, onDone, onClose }: Props) {
  const bridge = useBridge();
  const id = useId();
  const [value, setValue] = useState(initial);
  const [target, setTarget] = useState<string>('every');
  const [results, setResults] = useState<{ secret: boolean; results: ConfigSetResult[] }>();
  const run = useStart<Control>(controlOf);
  const readable = nodes.filter((n) => n.state === 'ok');

  const apply = () =>
    run.start(async () => {
      const out = await bridge.invoke('config.set', {
        profileId,
        name: param.name,
        value,
        target: target === 'every' ? { scope: 'every' } : { scope: 'node', address: target },
      });
      setResults({ secret: out.secret, results: out.results });
      onDone();
    });

  return (
    <form
      className="cfg-edit"
      data-testid="config-edit"
      onSubmit={(e) => {
        e.preventDefault();
        void apply();
      }}
    >
      <div className="cfg-edit-fields">
        <div className="field">
          <label htmlFor={`${id}-value`}>
            New value of <span className="mono">{param.name}</span>
          </label>
          <input
            id={`${id}-value`}
            type={param.secret ? 'password' : 'text'}
            className="mono"
            value={value}
            autoComplete={param.secret ? 'new-password' : 'off'}
            spellCheck={false}
            placeholder={param.secret ? 'the new secret (never shown back)' : undefined}
            aria-invalid={run.errors.value !== undefined}
            aria-describedby={run.errors.value === undefined ? undefined : `${id}-value-error`}
            onChange={(e) => {
              setValue(e.target.value);
              run.clear(['value']);
            }}
            data-testid="config-edit-value"
          />
          <FieldError field="value" id={`${id}-value-error`} message={run.errors.value} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-target`}>On</label>
          <select id={`${id}-target`} value={target} onChange={(e) => setTarget(e.target.value)} data-testid="config-edit-target">
            <option value="every">every node ({nodes.length})</option>
            {readable.map((n) => (
              <option key={n.address} value={n.address}>
                {n.address} ({roleLabel(n.role)})
              </option>
            ))}
          </select>
          <FieldError field="target" id={`${id}-target-error`} message={run.errors.target} />
        </div>
        <div className="form-actions cfg-edit-actions">
          <button type="submit" className="btn btn-primary" disabled={run.starting} data-testid="config-edit-apply">
            {run.starting ? 'Setting…' : 'CONFIG SET'}
          </button>
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <p className="hint">Redis checks the value; each node answers for itself, and the change is written to the audit log.</p>
      {param.name === 'requirepass' && (
        <p className="hint hint-warn" data-testid="config-edit-requirepass">
          Cacheboard goes on logging in with the password its profile holds: change the profile too, or its next connection to this server is refused.
        </p>
      )}
      <ErrorAlert error={run.error} title="Not set:" />
      {results !== undefined && (
        <ul className="cfg-results" data-testid="config-set-results" aria-live="polite">
          {results.results.map((r) => (
            <li key={r.address} className={r.ok ? 'cfg-ok' : 'cfg-failed'} data-address={r.address} data-ok={r.ok}>
              <span className="mono">{r.address}</span> {r.ok ? '✓' : '✗'} <span className="cfg-outcome">{setOutcome(r, results.secret)}</span>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
