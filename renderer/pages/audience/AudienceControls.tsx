import { useId } from 'react';
import type { AudienceAttributes } from '../../../app/schemas/audience';
import type { ProfileView } from '../../../app/schemas/connections';
import { useBridge } from '../../bridge/BridgeContext';
import type { CallState } from '../../bridge/useCall';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Builder } from './Builder';
import { composeWhere } from './expression';
import { controlOf, shownDb, targetOf, toOptions, type AudienceForm } from './form';
import { layoutErrors } from './layout';
import { LayoutPanel } from './LayoutPanel';
import type { CurrentRun } from './pageSession';
import { RunOptions } from './RunOptions';
import { useParse } from './useParse';
import { addressOf } from '../../lib/address';
import { useStart } from '../../lib/useStart';
import { roleOf } from '../../auth/permissions';
import { useSession } from '../../auth/SessionContext';
import { readOnlyNote } from './readOnly';
import { WhereField } from './WhereField';

interface Props {
  profile: ProfileView;
  /** The form with the discovered range filled into empty dates. */
  form: AudienceForm;
  onForm(form: AudienceForm): void;
  attributes: CallState<AudienceAttributes>;
  /** A trial of this profile is still going: one at a time. */
  running: boolean;
  onStarted(run: CurrentRun): void;
}

/** The audience (chips and the expression), the range and the strategies; Run. */
export function AudienceControls({ profile, form, onForm, attributes, running, onStarted }: Props) {
  const bridge = useBridge();
  const uid = useId();
  const { start, starting, errors, error, clear } = useStart(controlOf);
  const parse = useParse(form.where, profile.id, targetOf(profile, form));
  const invalid = !parse.pending && parse.result?.valid === false;
  const badLayout = Object.keys(layoutErrors(profile, form.layout)).length > 0;
  const handEdited = form.picks.length > 0 && form.where !== composeWhere(form.picks);
  // An analyst's trial only reads; the server refuses one that cannot, and the page says so first.
  const analyst = roleOf(useSession().session) !== 'ops';
  const readOnly = analyst ? readOnlyNote(parse.pending ? undefined : parse.result?.readOnly, form.strategies) : undefined;

  function change(patch: Partial<AudienceForm>) {
    clear();
    onForm({ ...form, ...patch });
  }

  const run = () =>
    start(async () => {
      if (running) return;
      const { jobId } = await bridge.invoke('audience.start', { ...toOptions(profile.id, form), ...targetOf(profile, form) });
      onStarted({ jobId, profileId: profile.id, profileName: profile.name });
    });

  return (
    <section className="panel job-controls" aria-labelledby={`${uid}-title`}>
      <header className="job-controls-head">
        <h2 id={`${uid}-title`}>Audience</h2>
        <span className="muted">
          on <strong className="job-profile">{profile.name}</strong>{' '}
          <span className="mono" data-testid="aud-where-to">
            {addressOf({ ...profile, db: shownDb(profile, form) })}
          </span>
        </span>
      </header>
      <LayoutPanel profile={profile} layout={form.layout} onLayout={(layout) => change({ layout })} serverError={errors.layout} />
      <Builder
        attributes={attributes.data}
        loading={attributes.loading}
        error={attributes.error}
        refresh={attributes.refresh}
        picks={form.picks}
        onPicks={(picks) => change({ picks, where: composeWhere(picks) })}
      />
      {handEdited && <p className="hint">The expression was edited by hand; a chip click writes it again from the chips.</p>}
      <WhereField value={form.where} onChange={(where) => change({ where })} parse={parse} error={errors.where} known={attributes.data?.attributes} />
      <RunOptions form={form} change={change} errorOf={(c) => errors[c]} />
      <div className="job-start-row">
        <button
          type="button"
          className="btn btn-primary"
          onClick={run}
          disabled={starting || running || invalid || badLayout || readOnly?.blocked === true}
          aria-busy={starting}
          data-testid="aud-run"
        >
          {starting ? 'Starting…' : 'Run trial'}
        </button>
        <span className="hint">
          {running ? (
            'A trial on this profile is running; cancel it below or wait for its results.'
          ) : invalid ? (
            'Fix the expression first: the error is shown under it.'
          ) : badLayout ? (
            'Fix the key layout first: its errors are shown in the Key layout panel.'
          ) : readOnly !== undefined ? (
            <span data-testid="aud-read-only">{readOnly.text}</span>
          ) : (
            'Reads the data keys; temporary keys go under the scratch prefix with a TTL and are removed at the end of every run.'
          )}
        </span>
        {errors.db !== undefined && (
          <p className="hint-warn" data-testid="aud-run-db-error">
            DB (in the Demo dataset box): {errors.db}
          </p>
        )}
        <ErrorAlert error={error} title="Could not start:" />
      </div>
    </section>
  );
}
