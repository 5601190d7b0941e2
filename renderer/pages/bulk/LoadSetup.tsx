import { useRef, useState } from 'react';
import { readOnlyDataText } from '../../../app/readOnlyData';
import type { AppError } from '../../../app/errors';
import type { LoadFile } from '../../../app/schemas/bulk';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';
import { useCall } from '../../bridge/useCall';
import { besideField } from '../../lib/formInput';
import { useServerFacts } from '../../lib/useServerFacts';
import { useProfiles } from '../../profiles/ProfilesContext';
import { modeOn } from './clusterModes';
import { FilePanel } from './FilePanel';
import type { KeptJob } from './jobStore';
import { MappingPanel } from './MappingPanel';
import { PreviewPanel } from './PreviewPanel';
import {
  confirmMatches,
  controlOf,
  EMPTY_MAPPING,
  EMPTY_TARGET,
  guessFormat,
  isTabular,
  toLoadOptions,
  toPreviewInput,
  type Control,
  type InputFormat,
  type MappingValues,
  type TargetValues,
} from './setup';
import { TargetPanel } from './TargetPanel';
import { usePreview } from './usePreview';

/** Everything chosen before Start, kept by the page so "Change settings" can come back to it. */
export interface SetupDraft {
  file: LoadFile | undefined;
  format: InputFormat | '';
  mapping: MappingValues;
  target: Omit<TargetValues, 'targetDb' | 'confirm'>;
  /** The typed target DB and the profile it was typed for; another profile starts from its own DB. */
  targetDb: { profileId: string; text: string } | undefined;
  /** The last load's refusal, shown beside the input it names (e.g. allowEmpty) on the way back. */
  pointAt?: { field: string; message: string };
}

export const EMPTY_DRAFT: SetupDraft = {
  file: undefined,
  format: '',
  mapping: EMPTY_MAPPING,
  target: EMPTY_TARGET,
  targetDb: undefined,
};

type Errors = Partial<Record<Control, string>>;

interface Props {
  initial: SetupDraft;
  onStarted(job: KeptJob, draft: SetupDraft): void;
}

/** A refusal's message under the input it names, when the form has that input. */
function errorsAt(p: SetupDraft['pointAt']): Errors {
  const control = controlOf(p?.field);
  return p === undefined || control === undefined ? {} : { [control]: besideField(p.message, p.field) };
}

/** Steps 1–4: file, format and mapping, preview, target and mode; Start hands over to the job view. */
export function LoadSetup({ initial, onStarted }: Props) {
  const bridge = useBridge();
  const { selected: profile, loading: profilesLoading } = useProfiles();
  const files = useCall('bulk.files', {});
  // A replica, or the target DB's keys: known now, so said before the confirmation, not after Start.
  const facts = useServerFacts(profile);
  const [draft, setDraft] = useState<SetupDraft>(initial);
  const [confirm, setConfirm] = useState('');
  const [startErrors, setStartErrors] = useState<Errors>(() => errorsAt(initial.pointAt));
  const [startError, setStartError] = useState<AppError>();
  const [starting, setStarting] = useState(false);
  // A double click lands before the disabled button renders; one start per click-through.
  const inFlight = useRef(false);

  const { file, format, mapping } = draft;
  const targetDb = profile === undefined ? '' : draft.targetDb?.profileId === profile.id ? draft.targetDb.text : String(profile.db);
  // The chosen mode, unless the profile refuses it: swap (the default) on a cluster becomes merge.
  const target: TargetValues = { ...draft.target, mode: modeOn(draft.target.mode, profile), targetDb, confirm };

  // Which controls to show: the chosen format, else what the server detected, else the extension.
  const previewGuess = file === undefined ? undefined : guessFormat(file.name);
  const tabularGuess = isTabular(format === '' ? previewGuess : format);
  const preview = usePreview(file === undefined ? undefined : toPreviewInput(file.fileId, format, mapping, tabularGuess));
  const detected = preview.preview?.format ?? preview.lastGood?.format ?? previewGuess;
  const effective = format === '' ? detected : format;
  const tabular = isTabular(effective);

  const previewControl = controlOf(preview.error?.field);
  const previewError = preview.error;
  const errors: Errors = {
    ...(previewControl && previewError ? { [previewControl]: besideField(previewError.message, previewError.field) } : {}),
    ...startErrors,
  };

  /** Editing an input clears the start error it had; preview errors follow the next preview. */
  function touched(...controls: Control[]) {
    setStartError(undefined);
    if (controls.some((c) => startErrors[c] !== undefined)) {
      setStartErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !controls.includes(k as Control))));
    }
  }

  function update(patch: Partial<SetupDraft>) {
    setDraft((d) => ({ ...d, ...patch }));
  }

  const blocked =
    profile === undefined
      ? 'Add a connection first.'
      : profile.readOnlyData
        ? readOnlyDataText(profile, { refused: 'nothing is loaded into it', instead: 'load data' })
        : facts?.replica === true
          ? 'A replica takes no writes: pick the profile of its master.'
          : file === undefined
            ? 'Choose a file first.'
            : !confirmMatches(target)
              ? `Type ${targetDb.trim() === '' ? 'the target DB number' : targetDb.trim()} above to enable Start.`
              : undefined;

  async function start() {
    if (profile === undefined || file === undefined || blocked !== undefined || inFlight.current) return;
    inFlight.current = true;
    setStarting(true);
    setStartError(undefined);
    setStartErrors({});
    try {
      const input = toLoadOptions(profile.id, file.fileId, format, tabular ? mapping : undefined, target);
      const { jobId } = await bridge.invoke('bulk.start', input);
      onStarted({ jobId, file: file.name, mode: target.mode, targetDb: Number(targetDb), profileName: profile.name }, draft);
    } catch (e) {
      const err = toAppError(e);
      const control = controlOf(err.field);
      if (control !== undefined) setStartErrors({ [control]: besideField(err.message, err.field) });
      else setStartError(err);
      setStarting(false);
      inFlight.current = false;
    }
  }

  const shownPreview = preview.preview ?? (preview.pending ? preview.lastGood : undefined);

  return (
    <div className="bulk-setup">
      <div className="bulk-setup-top">
        <FilePanel
          files={files}
          selected={file}
          onSelect={(f) => {
            touched('fileId');
            update({ file: f });
          }}
          fieldError={errors.fileId}
        />
        <MappingPanel
          format={format}
          onFormat={(f) => {
            touched('format');
            update({ format: f });
          }}
          detected={detected}
          hasFile={file !== undefined}
          mapping={mapping}
          onMapping={(patch) => {
            touched(...(Object.keys(patch).map((k) => `mapping.${k}`) as Control[]));
            setDraft((d) => ({ ...d, mapping: { ...d.mapping, ...patch } }));
          }}
          columns={preview.preview?.columns ?? preview.lastGood?.columns ?? []}
          errors={errors}
        />
      </div>
      <PreviewPanel
        idle={file === undefined}
        preview={previewControl === undefined ? shownPreview : undefined}
        stale={preview.pending && shownPreview !== undefined}
        error={previewControl === undefined ? preview.error : undefined}
        blockedByField={previewControl !== undefined && !preview.pending}
        needsKey={tabular && mapping.key === ''}
      />
      <TargetPanel
        profile={profile}
        profilesLoading={profilesLoading}
        values={target}
        onChange={(patch) => {
          const { targetDb: db, confirm: typed, ...rest } = patch;
          touched(...(Object.keys(patch).map((k) => (k === 'confirm' ? 'confirmDb' : k)) as Control[]));
          if (typed !== undefined) setConfirm(typed);
          if (db !== undefined && profile !== undefined) update({ targetDb: { profileId: profile.id, text: db } });
          if (Object.keys(rest).length > 0) setDraft((d) => ({ ...d, target: { ...d.target, ...rest } }));
        }}
        errors={errors}
        blocked={blocked}
        replica={facts?.replica === true}
        targetKeys={facts === undefined || !/^\d+$/.test(targetDb.trim()) ? undefined : facts.keysIn(Number(targetDb))}
        starting={starting}
        startError={startError}
        onStart={start}
      />
    </div>
  );
}
