import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { AppError } from '../../../app/errors';
import type { ProfileView } from '../../../app/schemas/connections';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { Choices } from '../../components/Choices';
import { ErrorAlert } from '../../components/ErrorAlert';
import { FieldError } from '../../components/FieldError';
import { TestResultView, type TestOutcome } from '../../components/TestResultView';
import { useProfiles } from '../../profiles/ProfilesContext';
import { EMPTY_FORM, formFieldOf, formFromProfile, toDraft, type AnalystChoice, type FormField, type FormValues, type TopologyChoice } from './draft';
import { acceptPin } from './sshDraft';
import './connections.css';

const TOPOLOGIES: ReadonlyArray<{ value: TopologyChoice; label: string; detail: string }> = [
  { value: 'standalone', label: 'Standalone', detail: 'One server (or one replica), at host:port.' },
  { value: 'cluster', label: 'Cluster', detail: 'A Redis Cluster: host:port is a seed node; the others are found from it.' },
  { value: 'sentinel', label: 'Sentinel', detail: 'Through Sentinel: host:port is a sentinel; the sentinels name the master.' },
];

const ANALYST_CHOICES: ReadonlyArray<{ value: AnalystChoice; label: string; detail: string }> = [
  { value: 'user', label: 'Own Redis user', detail: 'Analysts connect as this ACL user: its rules decide what they may read and run.' },
  { value: 'shared', label: 'Ops user', detail: "Analysts connect with this profile's own user and password, with all its rights." },
  { value: 'none', label: 'Not allowed', detail: 'Analysts neither see nor use this profile.' },
];

/** The server drops stored secrets on such an edit (connections.update), so the form says so where they are typed. */
const MOVED_NOTE = 'Kept only while host, port, TLS and topology stay as saved: type it again when you change them.';

type FieldErrors = Partial<Record<FormField, string>>;
type TextKey = { [K in keyof FormValues]: FormValues[K] extends string ? K : never }[keyof FormValues];

interface TextExtra {
  placeholder?: string;
  type?: 'text' | 'password';
  inputMode?: 'numeric';
  hint?: ReactNode;
  autoComplete?: string;
  disabled?: boolean;
}

interface Props {
  /** Absent: add a new profile. */
  editing?: ProfileView;
  onSaved(p: ProfileView): void;
  onCancel(): void;
}

/** Add or edit a profile. Validation is the server's: its errors land next to their field. */
export function ProfileForm({ editing, onSaved, onCancel }: Props) {
  const bridge = useBridge();
  const { passwordStorage } = useProfiles();
  const uid = useId();
  const [values, setValues] = useState<FormValues>(() => (editing ? formFromProfile(editing) : EMPTY_FORM));
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [alert, setAlert] = useState<AppError>();
  const [saving, setSaving] = useState(false);
  const [test, setTest] = useState<TestOutcome>();

  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    // The form opens above the list; bring it into view for a row far down.
    formRef.current?.scrollIntoView({ block: 'nearest' });
    formRef.current?.querySelector('input')?.focus();
  }, []);

  const idOf = (f: string) => `${uid}-${f.replaceAll('.', '-')}`;
  const errId = (f: string) => `${idOf(f)}-error`;

  function set<K extends keyof FormValues>(key: K, value: FormValues[K], field?: FormField) {
    setValues((v) => ({ ...v, [key]: value }));
    if (field !== undefined && fieldErrors[field] !== undefined) {
      setFieldErrors(({ [field]: _gone, ...rest }) => rest);
    }
  }

  /** Route an error to its field when the form has one, else to the alert area. */
  function show(err: AppError): void {
    const field = formFieldOf(err.field);
    if (field !== undefined) setFieldErrors({ [field]: err.message });
    else setAlert(err);
  }

  function reset(): void {
    setFieldErrors({});
    setAlert(undefined);
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    reset();
    setSaving(true);
    try {
      const profile = toDraft(values);
      const saved = editing
        ? await bridge.invoke('connections.update', { id: editing.id, profile, clearPassword: values.clearPassword })
        : await bridge.invoke('connections.add', profile);
      onSaved(saved);
    } catch (err) {
      show(toAppError(err));
    } finally {
      setSaving(false);
    }
  }

  /** Pin the refused key under the address the server reported (a Host alias's HostName, a jump host). */
  function acceptHostKey(): void {
    const key = test?.result?.sshHostKey;
    if (key === undefined) return;
    setValues((v) => ({ ...v, ...acceptPin(v, key.host, key.port, key.fingerprint) }));
    if (fieldErrors['ssh.pinned'] !== undefined) setFieldErrors(({ 'ssh.pinned': _gone, ...rest }) => rest);
  }

  async function onTest() {
    reset();
    setTest({ pending: true });
    try {
      // Editing: the server fills in the stored password, which never comes to the page.
      const borrow = editing !== undefined && !values.clearPassword ? { id: editing.id } : {};
      const result = await bridge.invoke('connections.test', { draft: toDraft(values), ...borrow });
      setTest({ pending: false, result });
      const field = formFieldOf(result.error?.field);
      if (field !== undefined && result.error) setFieldErrors({ [field]: result.error.message });
    } catch (err) {
      const error = toAppError(err);
      setTest({ pending: false, error });
      const field = formFieldOf(error.field);
      if (field !== undefined) setFieldErrors({ [field]: error.message });
    }
  }

  /** A labelled text input with its field error beside it. */
  const text = (field: FormField, key: TextKey, label: string, extra: TextExtra = {}) => {
    const hintId = extra.hint !== undefined ? `${idOf(field)}-hint` : undefined;
    const describedBy = [fieldErrors[field] !== undefined ? errId(field) : undefined, hintId].filter(Boolean).join(' ');
    return (
      <div className={`field field-${field.replaceAll('.', '-')}`}>
        <label htmlFor={idOf(field)}>{label}</label>
        <input
          id={idOf(field)}
          type={extra.type ?? 'text'}
          inputMode={extra.inputMode}
          value={values[key]}
          placeholder={extra.placeholder}
          autoComplete={extra.autoComplete ?? 'off'}
          disabled={extra.disabled}
          spellCheck={false}
          aria-invalid={fieldErrors[field] !== undefined}
          aria-describedby={describedBy === '' ? undefined : describedBy}
          onChange={(e) => set(key, e.target.value, field)}
        />
        <FieldError field={field} id={errId(field)} message={fieldErrors[field]} />
        {extra.hint !== undefined && (
          <span className="hint" id={hintId}>
            {extra.hint}
          </span>
        )}
      </div>
    );
  };

  const check = (field: FormField | undefined, key: 'tlsEnabled' | 'verifyCert' | 'clearPassword' | 'sshEnabled', label: string) => (
    <div className="field field-check">
      <input id={idOf(key)} type="checkbox" checked={values[key]} onChange={(e) => set(key, e.target.checked, field)} />
      <label htmlFor={idOf(key)}>{label}</label>
      {field !== undefined && <FieldError field={field} id={errId(field)} message={fieldErrors[field]} />}
    </div>
  );

  const fromUrl = values.url.trim() !== '';
  const cluster = values.topology === 'cluster';
  const sentinel = values.topology === 'sentinel';
  const defaultPort = sentinel ? '26379' : '6379';
  // Shown until a save is refused for it; then the field error says the same, once.
  const storageNote =
    passwordStorage && !passwordStorage.available && fieldErrors.password === undefined
      ? `Passwords cannot be stored here${passwordStorage.reason ? `: ${passwordStorage.reason}` : '.'}`
      : undefined;
  const title = editing ? `Edit connection “${editing.name}”` : 'Add connection';

  return (
    <form ref={formRef} className="panel profile-form" aria-label={editing ? 'Edit connection' : 'Add connection'} onSubmit={onSubmit} noValidate>
      <h2>{title}</h2>
      <ErrorAlert error={alert} />
      <div className="form-grid">
        <fieldset className="form-col">
          <legend>Server</legend>
          {text('name', 'name', 'Name', { placeholder: 'e.g. cache-prod' })}
          {text('tags', 'tags', 'Tags', { placeholder: 'e.g. prod, team/eu', hint: 'Comma-separated; the list groups by them once there are many' })}
          <Choices
            legend="Topology"
            field="topology"
            className="topology-choices"
            options={TOPOLOGIES}
            value={values.topology}
            onChange={(t) => {
              set('topology', t);
              setFieldErrors({});
            }}
            error={undefined}
            testIdPrefix="topology"
          />
          {text('url', 'url', 'URL', {
            placeholder: 'redis://[user:password@]host[:port][/db]',
            hint: 'Or fill in host, port and DB below; fields you fill override the URL.',
          })}
          <div className="field-row">
            {text('host', 'host', 'Host', { placeholder: fromUrl ? 'from URL' : '127.0.0.1' })}
            {text('port', 'port', 'Port', { placeholder: fromUrl ? 'from URL' : defaultPort, inputMode: 'numeric' })}
            {text('db', 'db', 'DB', {
              placeholder: fromUrl ? 'from URL' : '0',
              inputMode: 'numeric',
              ...(cluster ? { hint: 'A cluster has DB 0 only' } : {}),
            })}
          </div>
          {cluster &&
            text('topology.seeds', 'seeds', 'Seed nodes', {
              placeholder: '10.0.0.6:7000, 10.0.0.7:7000',
              hint: 'More nodes as host:port, comma-separated: any one that answers is enough',
            })}
          {sentinel && (
            <>
              {text('topology.sentinels', 'sentinels', 'Sentinels', {
                placeholder: '10.0.0.8:26379, 10.0.0.9:26379',
                hint: 'More sentinels as host:port, comma-separated (port 26379 if left out)',
              })}
              {text('topology.masterName', 'masterName', 'Master name', {
                placeholder: 'mymaster',
                hint: 'The name the sentinels monitor the master under',
              })}
            </>
          )}
          <div className="field-row">
            {text('username', 'username', 'User', { placeholder: 'default', hint: 'ACL user, if not "default"' })}
            {text('password', 'password', 'Password', {
              type: 'password',
              autoComplete: 'new-password',
              placeholder: editing ? 'unchanged' : '',
              disabled: values.clearPassword,
              hint: storageNote ?? (editing?.hasPassword ? MOVED_NOTE : undefined),
            })}
          </div>
          {sentinel && (
            <div className="field-row">
              {text('topology.sentinelUsername', 'sentinelUsername', 'Sentinel user', {
                placeholder: 'default',
                hint: "The sentinels' own ACL user, if they require a login",
              })}
              {text('topology.sentinelPassword', 'sentinelPassword', 'Sentinel password', {
                type: 'password',
                autoComplete: 'new-password',
                placeholder: editing?.topology?.kind === 'sentinel' && editing.topology.hasSentinelPassword ? 'unchanged' : '',
                disabled: values.clearPassword,
              })}
            </div>
          )}
          {editing && check(undefined, 'clearPassword', sentinel ? 'Clear stored passwords' : 'Clear stored password')}
        </fieldset>
        <fieldset className="form-col">
          <legend>TLS</legend>
          {values.tlsEnabled && sentinel && <span className="hint">Sentinels are reached with TLS too, with the same CA and verification.</span>}
          {check('tls.enabled', 'tlsEnabled', 'TLS enabled')}
          {text('tls.caFile', 'caFile', 'CA file', {
            placeholder: '/etc/ssl/redis-ca.pem',
            hint: 'PEM bundle on the Cacheboard server, if not a public CA',
          })}
          {text('tls.servername', 'servername', 'SNI', {
            placeholder: 'same as host',
            hint: 'Certificate name to expect, when it differs from the host',
          })}
          {check('tls.rejectUnauthorized', 'verifyCert', 'Verify certificate')}
          {!values.verifyCert && <span className="hint hint-warn">Without verification anyone on the path can impersonate the server.</span>}
        </fieldset>
        <fieldset className="form-col" data-testid="ssh">
          <legend>SSH tunnel</legend>
          {check(undefined, 'sshEnabled', 'Through SSH')}
          {values.sshEnabled && (
            <>
              <span className="hint">Redis addresses above are then as seen from this SSH server.</span>
              <div className="field-row">
                {text('ssh.host', 'sshHost', 'SSH host', { placeholder: 'bastion.example.com', hint: 'Or a Host name from ~/.ssh/config' })}
                {text('ssh.port', 'sshPort', 'SSH port', { inputMode: 'numeric', placeholder: '22' })}
              </div>
              {text('ssh.user', 'sshUser', 'SSH user', { placeholder: 'from ~/.ssh/config' })}
              <div className="field">
                <label htmlFor={idOf('sshAuth')}>Log in with</label>
                <select id={idOf('sshAuth')} value={values.sshAuth} onChange={(e) => set('sshAuth', e.target.value as FormValues['sshAuth'])}>
                  <option value="agent">SSH agent</option>
                  <option value="key">Private key file</option>
                  <option value="password">Password</option>
                </select>
              </div>
              {values.sshAuth === 'key' &&
                text('ssh.auth.keyFile', 'sshKeyFile', 'Key file', { placeholder: '~/.ssh/id_ed25519', hint: 'On the Cacheboard server' })}
              {values.sshAuth !== 'agent' &&
                text(
                  values.sshAuth === 'key' ? 'ssh.auth.passphrase' : 'ssh.auth.password',
                  'sshSecret',
                  values.sshAuth === 'key' ? 'Key passphrase' : 'SSH password',
                  {
                    type: 'password',
                    autoComplete: 'new-password',
                    placeholder: sshSecretStored(editing) ? 'unchanged' : '',
                    disabled: values.clearPassword,
                  },
                )}
              {text('ssh.jumps', 'sshJumps', 'Jump hosts', { placeholder: 'ops@gateway:2222', hint: 'In order, before the SSH host (ProxyJump)' })}
              {text('ssh.knownHostsFile', 'sshKnownHosts', 'known_hosts', { placeholder: '~/.ssh/known_hosts' })}
              {text('ssh.pinned', 'sshPinned', 'Pinned host key', {
                placeholder: 'SHA256:…',
                hint: values.sshPinnedAt === '' ? 'Trusted instead of known_hosts' : `Trusted instead of known_hosts, for ${values.sshPinnedAt}`,
              })}
              {Object.keys(values.sshPins).length > 0 && (
                <span className="hint" data-testid="ssh-other-pins">
                  Also pinned:{' '}
                  {Object.entries(values.sshPins).map(([at, fp]) => (
                    <span key={at}>
                      {at} <code>{fp}</code>{' '}
                    </span>
                  ))}
                </span>
              )}
              {test?.result?.sshHostKey !== undefined && (
                <div className="hint hint-warn" data-testid="ssh-host-key">
                  {test.result.sshHostKey.reason === 'unknown' ? 'Unknown' : test.result.sshHostKey.reason === 'changed' ? 'Changed' : 'Revoked'} host key of{' '}
                  {test.result.sshHostKey.host}:{test.result.sshHostKey.port}: <code>{test.result.sshHostKey.fingerprint}</code>
                  {test.result.sshHostKey.expected !== undefined && (
                    <>
                      {' '}
                      (expected <code>{test.result.sshHostKey.expected}</code>)
                    </>
                  )}
                  {test.result.sshHostKey.reason === 'unknown' && (
                    <button type="button" className="btn" onClick={acceptHostKey}>
                      Accept and pin
                    </button>
                  )}
                </div>
              )}
            </>
          )}
        </fieldset>
        <fieldset className="form-col" data-testid="analyst-access">
          <legend>Analysts</legend>
          <Choices
            legend="Analysts connect with"
            field="analyst"
            className="analyst-choices"
            options={ANALYST_CHOICES}
            value={values.analystAccess}
            onChange={(a) => set('analystAccess', a)}
            error={undefined}
            testIdPrefix="analyst"
          />
          {values.analystAccess === 'shared' && (
            <span className="hint hint-warn" data-testid="analyst-shared-warning">
              Analysts will read everything this profile's user can, and run what it may: give them a Redis user of their own.
            </span>
          )}
          {values.analystAccess === 'user' && (
            <div className="field-row">
              {text('analyst.username', 'analystUsername', 'Analyst user', {
                placeholder: 'cb-analyst',
                hint: 'An ACL user that can only read (see the README)',
              })}
              {text('analyst.password', 'analystPassword', 'Analyst password', {
                type: 'password',
                autoComplete: 'new-password',
                placeholder: editing?.hasAnalystPassword ? 'unchanged' : '',
                disabled: values.clearPassword,
              })}
            </div>
          )}
        </fieldset>
      </div>
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={saving} aria-busy={saving}>
          Save
        </button>
        <button type="button" className="btn" onClick={onTest} disabled={test?.pending}>
          Test
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <TestResultView outcome={test} />
      </div>
    </form>
  );
}

/** Whether the saved profile holds the SSH passphrase or password the form would otherwise ask for. */
function sshSecretStored(p: ProfileView | undefined): boolean {
  const a = p?.ssh?.auth;
  return (a?.kind === 'key' && a.hasPassphrase) || (a?.kind === 'password' && a.hasPassword);
}
