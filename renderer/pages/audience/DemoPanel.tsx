import { shownDb, type AudienceTarget } from './form';
import { useState } from 'react';
import type { ProfileView } from '../../../app/schemas/connections';
import { usePermission } from '../../auth/usePermission';
import { useBridge } from '../../bridge/BridgeContext';
import { ErrorAlert } from '../../components/ErrorAlert';
import { addressOf } from '../../lib/address';
import { TextField } from '../../components/TextField';
import { CheckField } from '../../components/CheckField';
import { DEFAULT_DEMO, demoControlOf, toDemoOptions, type DemoForm } from './demo';
import { DemoStatus } from './DemoStatus';
import { currentDemo, setCurrentDemo } from './pageSession';
import { useDemoLoad } from './useDemoLoad';
import { useStart } from '../../lib/useStart';

interface Props {
  profile: ProfileView;
  db: AudienceTarget;
  /** The DB as typed: where demo data goes and the trial runs (the page's one DB). */
  dbText: string;
  onDb(db: string): void;
  /** The load wrote keys: scan the attributes again. */
  onLoaded(): void;
}

const FORBIDDEN_NOTE = 'Loading demo data writes to the server, so it needs the ops role; an analyst can time trials on data already there.';

/** The synthetic TV audience: users × days, deterministic per seed, written in all three layouts. Ops only. */
export function DemoPanel({ profile, db, dbText, onDb, onLoaded }: Props) {
  const bridge = useBridge();
  // The contract's role for the load decides, not a role named here.
  const analyst = !usePermission('audience.demoData').allowed;
  const [form, setForm] = useState<DemoForm>(DEFAULT_DEMO);
  const [jobId, setJobId] = useState(() => currentDemo(profile.id));
  const { start, starting, errors, error, clear } = useStart(demoControlOf);
  const demo = useDemoLoad(jobId, onLoaded);
  const running = jobId !== undefined && demo.view.outcome === undefined && demo.streamError === undefined;

  function change(patch: Partial<DemoForm>) {
    clear();
    setForm({ ...form, ...patch });
  }

  const load = () =>
    start(async () => {
      if (running) return;
      const started = await bridge.invoke('audience.demoData', toDemoOptions(profile.id, db, form));
      setCurrentDemo(profile.id, started.jobId);
      setJobId(started.jobId);
    });

  const field = (name: 'users' | 'days' | 'seed', label: string) => (
    <TextField
      label={label}
      field={name}
      className="aud-demo-field"
      value={form[name]}
      onChange={(value) => change({ [name]: value })}
      error={errors[name]}
      numeric
      testId={`aud-demo-${name}`}
    />
  );

  return (
    <section className="panel aud-demo" aria-label="Demo dataset" data-testid="aud-demo">
      <div className="aud-demo-text">
        <h2>
          Demo dataset{' '}
          <span className="muted aud-demo-where">
            into <strong>{profile.name}</strong>{' '}
            <span className="mono" data-testid="aud-demo-where">
              {addressOf({ ...profile, db: shownDb(profile, { db: dbText }) })}
            </span>
          </span>
        </h2>
        <p className="muted">
          A synthetic TV audience (gender, age band, region, income band, about 20 interests, daily activity), written through the bulk pipe as bitmaps, sets
          and per-user zsets. The same seed gives the same data. The DB chosen here is also the one the trial below reads.
        </p>
      </div>
      <div className="aud-demo-row">
        <TextField
          label="DB"
          field="db"
          className="aud-demo-field"
          value={dbText}
          onChange={(value) => {
            clear();
            onDb(value);
          }}
          error={errors.db}
          hint={`empty: db${profile.db}`}
          placeholder={String(profile.db)}
          numeric
          testId="aud-db"
        />
        {field('users', 'Users')}
        {field('days', 'Days')}
        {field('seed', 'Seed')}
        <CheckField
          label="Replace demo keys in a DB that holds keys"
          field="overwrite"
          checked={form.overwrite}
          onChange={(overwrite) => change({ overwrite })}
          error={errors.overwrite}
          testId="aud-demo-overwrite"
          className="aud-demo-overwrite"
        />
        <button
          type="button"
          className="btn"
          onClick={load}
          disabled={starting || running || analyst}
          aria-busy={starting}
          title={analyst ? FORBIDDEN_NOTE : undefined}
          data-testid="aud-demo-load"
        >
          {starting ? 'Starting…' : 'Load demo data'}
        </button>
      </div>
      {analyst && <p className="hint">{FORBIDDEN_NOTE}</p>}
      <ErrorAlert error={error} title="Could not load demo data:" />
      {error?.code === 'FORBIDDEN' && (
        <p className="hint-warn" data-testid="aud-demo-forbidden">
          {FORBIDDEN_NOTE}
        </p>
      )}
      {jobId !== undefined && <DemoStatus jobId={jobId} load={demo} />}
    </section>
  );
}
