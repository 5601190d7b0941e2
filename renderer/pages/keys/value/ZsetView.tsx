import { useState } from 'react';
import type { ValueBytes } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import { Segmented } from '../../../components/Segmented';
import { EscapedField, allTyped } from '../../../components/EscapedField';
import { ElementFind, FindStatus } from './ElementFind';
import { LoadMore } from './LoadMore';
import { useEditFocus } from './useEditFocus';
import { useFindElements } from './useFindElements';
import { usePaged } from './usePaged';
import { ValueText } from './ValueText';
import { readPage, type ViewProps } from './viewProps';
import { RowActions } from './RowActions';
import { VirtualRows } from '../../../components/bytes/VirtualRows';

interface Member {
  rank: number | null;
  member: ValueBytes;
  score: string;
}

const ROW = 28;
/** What ZRANGE BYSCORE takes: a number, `(` for exclusive, or ±inf. */
const SCORE_BOUND = /^\(?(?:[+-]?inf|[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)$/i;
const SCORE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$|^[+-]?inf$/i;

/** A sorted set by rank or by score range, either way round, with scores; ops add, increment and remove. */
export function ZsetView({ where, canEdit, edit, version }: ViewProps) {
  const bridge = useBridge();
  const [by, setBy] = useState<'rank' | 'score'>('rank');
  const [rev, setRev] = useState(false);
  const [minText, setMinText] = useState('-inf');
  const [maxText, setMaxText] = useState('+inf');
  const [range, setRange] = useState({ min: '-inf', max: '+inf' });
  const rangeOk = SCORE_BOUND.test(minText.trim()) && SCORE_BOUND.test(maxText.trim());
  const query = by === 'score' ? range : { min: '-inf', max: '+inf' };
  const paged = usePaged<Member, number>(`${where.key}|${by}|${rev}|${query.min}|${query.max}|${version}`, 0, async (start) => {
    const r = await readPage(bridge, where, { type: 'zset', by, start, rev, min: query.min, max: query.max, count: 200 });
    const next = start + r.members.length;
    return { items: r.members, next: r.members.length === 200 && (by === 'score' || next < r.total) ? next : null, total: r.total };
  });
  const find = useFindElements(where, 'zset', version);
  const focus = useEditFocus();
  // A find shows members by name: no rank (the rank column goes, as it does by score).
  const rows: Member[] = find.match === undefined ? paged.items : find.found.map((f) => ({ rank: null, member: f.element, score: f.score ?? '' }));
  const ranked = by === 'rank' && find.match === undefined;
  const [member, setMember] = useState('');
  const [score, setScore] = useState('');
  const [from, setFrom] = useState<Member>();
  // A new version (an edit landed, or Reload): a form filled from the old rows would expect stale values.
  const [seenVersion, setSeenVersion] = useState(version);
  if (seenVersion !== version) {
    setSeenVersion(version);
    setFrom(undefined);
  }
  const typed = allTyped(member);
  const scoreOk = SCORE.test(score.trim());

  function done(d: unknown) {
    if (d === undefined) return;
    setMember('');
    setScore('');
    setFrom(undefined);
    focus.closed();
  }
  function add() {
    if (!typed || !scoreOk) return;
    const m = typed[0] as string;
    const expectScore = from !== undefined && from.member.b64 === m ? from.score : null;
    void edit.run({ op: 'zset.add', member: m, score: score.trim(), expectScore }).then(done);
  }

  // ZRANGE BYSCORE gives no rank: the column is drawn by rank only.
  // Sized for the ~300 px the pane has at 1280: fixed columns that add up past it leave the member none.
  const columns = `${ranked ? '40px ' : ''}minmax(60px, 1fr) minmax(44px, 96px)${canEdit ? ' 108px' : ''}`;
  return (
    <div className="kv-view" data-testid="kv-zset" ref={focus.rootRef}>
      <div className="kv-view-bar">
        <ElementFind find={find} noun="members" />
        <Segmented
          label="Order by"
          value={by}
          onChange={setBy}
          options={[
            { value: 'rank', label: 'By rank' },
            { value: 'score', label: 'By score' },
          ]}
          testId="kv-zset-by"
        />
        <label className="kv-check">
          <input type="checkbox" checked={rev} onChange={(e) => setRev(e.target.checked)} data-testid="kv-zset-rev" />
          highest first
        </label>
        {by === 'score' && (
          <form
            className="kv-range"
            onSubmit={(e) => {
              e.preventDefault();
              if (rangeOk) setRange({ min: minText.trim(), max: maxText.trim() });
            }}
          >
            <input
              type="text"
              className="mono"
              aria-label="Lowest score"
              value={minText}
              onChange={(e) => setMinText(e.target.value)}
              data-testid="kv-zset-min"
            />
            <span className="muted">to</span>
            <input
              type="text"
              className="mono"
              aria-label="Highest score"
              value={maxText}
              onChange={(e) => setMaxText(e.target.value)}
              data-testid="kv-zset-max"
            />
            <button type="submit" className="btn btn-small" disabled={!rangeOk} data-testid="kv-zset-range">
              Apply
            </button>
            {!rangeOk && <span className="field-error">a score, ( for exclusive, or -inf/+inf</span>}
          </form>
        )}
      </div>
      {canEdit && (
        <form
          className="kv-form"
          data-testid="kv-zset-form"
          ref={focus.formRef}
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && from !== undefined) done(null);
          }}
        >
          <EscapedField label="Member" value={member} onChange={setMember} testId="kv-zset-member" className="kv-grow" />
          <div className="field kv-score">
            <label htmlFor="kv-zset-score">Score</label>
            <input
              id="kv-zset-score"
              type="text"
              className="mono"
              value={score}
              onChange={(e) => setScore(e.target.value)}
              data-testid="kv-zset-score"
              aria-invalid={score !== '' && !scoreOk}
            />
          </div>
          <button type="submit" className="btn btn-small btn-primary" disabled={edit.busy || !typed || !scoreOk} data-testid="kv-zset-add">
            {from !== undefined ? 'Set score' : 'Add'}
          </button>
          <button
            type="button"
            className="btn btn-small"
            disabled={edit.busy || !typed || !scoreOk}
            title="ZINCRBY: add the score above to the member's"
            onClick={() => typed && void edit.run({ op: 'zset.incr', member: typed[0] as string, by: score.trim() }).then(done)}
            data-testid="kv-zset-incr"
          >
            Increment by
          </button>
          {from !== undefined && (
            <button type="button" className="btn btn-small" onClick={() => done(null)} data-testid="kv-zset-cancel">
              Cancel
            </button>
          )}
        </form>
      )}
      <div className="kv-head" style={{ gridTemplateColumns: columns }}>
        {ranked && <span className="num">Rank</span>}
        <span>Member</span>
        <span className="num">Score</span>
        {canEdit && <span />}
      </div>
      <VirtualRows
        label="Members"
        testId="kv-rows"
        count={rows.length}
        rowHeight={ROW}
        columns={columns}
        row={(i) => {
          const m = rows[i] as Member;
          return (
            <>
              {ranked && <span className="num mono">{m.rank ?? '—'}</span>}
              <ValueText value={m.member} testId="kv-cell-value" />
              <span className="num mono" data-testid="kv-score">
                {m.score}
              </span>
              {canEdit && (
                <RowActions
                  busy={edit.busy}
                  cut={m.member.truncated}
                  editRow={m.member.b64}
                  onEdit={() => {
                    setFrom(m);
                    setMember(m.member.text);
                    setScore(m.score);
                    focus.opened(m.member.b64);
                  }}
                  onDelete={() => void edit.run({ op: 'zset.remove', member: m.member.b64 })}
                  deleteLabel="Remove"
                />
              )}
            </>
          );
        }}
      />
      {find.match === undefined ? (
        <LoadMore
          shown={paged.items.length}
          total={paged.total}
          noun="members"
          more={paged.more}
          loading={paged.loading}
          error={paged.error}
          onMore={paged.loadMore}
          filtered={by === 'score'}
        />
      ) : (
        <FindStatus find={find} noun="members" one="member" />
      )}
    </div>
  );
}
