import type { AttributeInfo } from '../../../app/schemas/audience';
import { Segmented } from '../../components/Segmented';
import { formatCount } from '../../lib/format';
import { plural } from '../../lib/plural';
import { unusableName, type AttributePick } from './expression';

/** More values than this get a select to add from, and chips for the picked ones only. */
const MAX_CHIPS = 24;

const MODES = [
  { value: 'any', label: 'any of' },
  { value: 'none', label: 'none of' },
] as const;

interface Props {
  attribute: AttributeInfo;
  pick: AttributePick | undefined;
  onToggle(value: string): void;
  onExclude(exclude: boolean): void;
}

/**
 * One attribute of the builder: its values as chips (OR within the attribute),
 * "any of" or "none of". Names and values come from Redis keys and are shown as text only.
 */
export function AttributeRow({ attribute: a, pick, onToggle, onExclude }: Props) {
  const unusable = unusableName(a.name);
  const picked = pick?.values ?? [];
  const many = a.values.length > MAX_CHIPS;
  const chips = many ? a.values.filter((v) => picked.includes(v.value)) : a.values;
  return (
    <li className={`aud-attr${unusable === undefined ? '' : ' is-unusable'}`} data-testid="aud-attr" data-name={a.name}>
      <span className="aud-attr-name mono" title={a.name}>
        {a.name}
      </span>
      {unusable === undefined ? (
        <>
          <Segmented label={`${a.name}: match`} options={MODES} value={pick?.exclude ? 'none' : 'any'} onChange={(m) => onExclude(m === 'none')} />
          <span className="aud-chips">
            {chips.map((v) => (
              <button
                key={v.value}
                type="button"
                className="aud-chip"
                aria-pressed={picked.includes(v.value)}
                title={`${plural(v.users, 'user')} · ${v.layouts.join(', ') || 'no layout'}`}
                data-value={v.value}
                onClick={() => onToggle(v.value)}
              >
                <span className="aud-chip-value">{v.value}</span>
                <span className="aud-chip-users">{formatCount(v.users)}</span>
              </button>
            ))}
            {many && (
              <select className="aud-more" aria-label={`Add a value of ${a.name}`} value="" onChange={(e) => e.target.value !== '' && onToggle(e.target.value)}>
                <option value="">{`add one of ${plural(a.values.length, 'value')}…`}</option>
                {a.values
                  .filter((v) => !picked.includes(v.value))
                  .map((v) => (
                    <option key={v.value} value={v.value}>
                      {`${v.value} (${formatCount(v.users)})`}
                    </option>
                  ))}
              </select>
            )}
          </span>
        </>
      ) : (
        <span className="muted aud-attr-note">cannot be used: {unusable}</span>
      )}
    </li>
  );
}
