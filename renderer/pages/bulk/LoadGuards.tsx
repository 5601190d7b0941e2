import { CheckField } from '../../components/CheckField';
import type { Control, TargetValues } from './setup';

interface Props {
  values: TargetValues;
  onChange(patch: Partial<TargetValues>): void;
  errors: Partial<Record<Control, string>>;
}

/**
 * The opt-ins beside the mode: a load that would empty (or halve) the live
 * DB, that may make Redis evict, or (swap) whose switch would discard other
 * clients' writes to the live DB, is refused unless ticked here. A
 * refusal names the option in its `field`, so its message lands under the box.
 * merge only adds keys, so it has nothing to empty: no box for it there.
 */
export function LoadGuards({ values: v, onChange, errors }: Props) {
  return (
    <div className="bulk-guards">
      {v.mode !== 'merge' && (
        <CheckField
          label="Allow an empty or much smaller DB"
          field="allowEmpty"
          checked={v.allowEmpty}
          onChange={(allowEmpty) => onChange({ allowEmpty })}
          error={errors.allowEmpty}
          testId="bulk-allowEmpty"
        >
          <span className="hint">Otherwise a load that would leave the live DB empty, or (swap) with under half its keys, is refused.</span>
        </CheckField>
      )}
      <CheckField
        label="Start even if Redis may evict"
        field="allowEvictionRisk"
        checked={v.allowEvictionRisk}
        onChange={(allowEvictionRisk) => onChange({ allowEvictionRisk })}
        error={errors.allowEvictionRisk}
        testId="bulk-allowEvictionRisk"
      >
        <span className="hint">For data that may not fit under maxmemory with an evicting policy. The load still stops at the first eviction.</span>
      </CheckField>
      {v.mode === 'swap' && (
        <CheckField
          label="Switch even if the live DB was written to"
          field="allowLiveWrites"
          checked={v.allowLiveWrites}
          onChange={(allowLiveWrites) => onChange({ allowLiveWrites })}
          error={errors.allowLiveWrites}
          testId="bulk-allowLiveWrites"
        >
          <span className="hint">
            SWAPDB replaces the whole DB: writes other clients make to it during the load are discarded. Otherwise such a load is refused at the switch; the
            report counts them either way.
          </span>
        </CheckField>
      )}
    </div>
  );
}
