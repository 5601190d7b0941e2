import { memo, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { argsText, cellText, clockMs, highlightParts } from './lineText';
import type { RowSource } from '../../lib/ring';
import type { LineRow, Row } from './rows';
import { anchorAt, maxTop, topFor, visibleRange, type Anchor } from './virtual';

/** Every row is this tall: the list computes which rows are in view instead of measuring them. */
export const ROW_HEIGHT = 20;
const FALLBACK_VIEWPORT = 440;
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

interface Props {
  /** Read again on every render: the parent renders once per frame that brought rows. */
  view: RowSource<Row>;
  query: string;
  paused: boolean;
  selected: number | undefined;
  onSelect(row: Row): void;
  label: string;
}

/**
 * A fixed-row-height virtual list: only the rows in view (plus a few) are in
 * the DOM, whatever the buffer holds. At the bottom it follows the newest line;
 * scrolling up stops following and holds the rows in view (by seq) while older
 * rows are evicted above them.
 */
export function LineList({ view, query, paused, selected, onSelect, label }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const [follow, setFollow] = useState(true);
  const [anchor, setAnchor] = useState<Anchor | undefined>(undefined);
  const [viewport, setViewport] = useState(FALLBACK_VIEWPORT);
  // The offset this component last set, so its own scroll event is not read as the user's.
  const ownScroll = useRef<number | undefined>(undefined);
  // The scroller's offset as last set or seen. Reading scrollTop after the rows changed
  // would force a layout in the middle of every frame; this is kept instead.
  const knownTop = useRef(0);
  const [wasPaused, setWasPaused] = useState(paused);
  if (wasPaused !== paused) {
    setWasPaused(paused);
    // Resume jumps to live.
    if (!paused) setFollow(true);
  }

  const count = view.length;
  const bottom = maxTop(count, ROW_HEIGHT, viewport);
  const top = follow || anchor === undefined ? (follow ? bottom : 0) : Math.min(bottom, topFor(view, anchor, ROW_HEIGHT));
  const { start, end } = visibleRange(top, viewport, ROW_HEIGHT, count);
  const rows: Row[] = [];
  for (let i = start; i < end; i++) {
    const r = view.at(i);
    if (r !== undefined) rows.push(r);
  }

  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight || FALLBACK_VIEWPORT));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null || Math.abs(knownTop.current - top) < 1) return;
    knownTop.current = top;
    ownScroll.current = top;
    el.scrollTop = top;
  });

  const stopFollowing = () => {
    if (!follow) return;
    setFollow(false);
    setAnchor(anchorAt(view, knownTop.current, ROW_HEIGHT));
  };

  const onScroll = () => {
    const el = ref.current;
    if (el === null) return;
    const own = ownScroll.current;
    ownScroll.current = undefined;
    const now = el.scrollTop;
    knownTop.current = now;
    if (own !== undefined && Math.abs(now - own) < 1) return;
    const atBottom = now >= maxTop(view.length, ROW_HEIGHT, el.clientHeight) - ROW_HEIGHT / 2;
    setFollow(atBottom);
    setAnchor(atBottom ? undefined : anchorAt(view, now, ROW_HEIGHT));
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (UP_KEYS.has(e.key)) stopFollowing();
  };

  return (
    <div className="mon-list-frame">
      <div className="mon-row mon-list-head" aria-hidden="true">
        <span>Time</span>
        <span>DB</span>
        <span className="mon-c-client">Client</span>
        <span>Command</span>
        <span>Arguments</span>
      </div>
      <div
        ref={ref}
        className="mon-list"
        role="log"
        aria-label={label}
        aria-live="off"
        tabIndex={0}
        data-testid="monitor-list"
        data-rows={count}
        onScroll={onScroll}
        onWheel={(e) => {
          if (e.deltaY < 0) stopFollowing();
        }}
        onKeyDown={onKeyDown}
      >
        <div className="mon-list-spacer" style={{ height: count * ROW_HEIGHT }}>
          <div className="mon-list-window" style={{ transform: `translateY(${start * ROW_HEIGHT}px)` }}>
            {/* Keyed by slot, not by row: a new batch rewrites the text of the same few
                elements instead of removing and creating them all. */}
            {rows.map((r, slot) =>
              r.kind === 'line' ? (
                <LineRowView key={slot} row={r} query={query} selected={r.seq === selected} onSelect={onSelect} />
              ) : (
                <div key={slot} className="mon-row mon-mark" data-testid="monitor-mark" title={r.text}>
                  {r.text}
                </div>
              ),
            )}
          </div>
        </div>
        {count === 0 && <p className="empty mon-list-empty">{query.trim() === '' ? 'No lines yet.' : 'No buffered line matches.'}</p>}
      </div>
      {!follow && (
        <button type="button" className="btn btn-small mon-jump" onClick={() => setFollow(true)} data-testid="monitor-jump">
          ↓ Newest
        </button>
      )}
    </div>
  );
}

function Marked({ text, query }: { text: string; query: string }) {
  if (query === '') return text;
  return highlightParts(text, query).map((p, i) => (p.hit ? <mark key={i}>{p.text}</mark> : p.text));
}

/** One MONITOR line; every field is rendered as text, never as markup. */
const LineRowView = memo(function LineRowView({
  row,
  query,
  selected,
  onSelect,
}: {
  row: LineRow;
  query: string;
  selected: boolean;
  onSelect(row: Row): void;
}) {
  const l = row.line;
  const q = query.trim();
  return (
    <div
      className={`mon-row${row.seq % 2 === 1 ? ' is-odd' : ''}${selected ? ' is-selected' : ''}`}
      data-testid="monitor-row"
      aria-selected={selected}
      onClick={() => onSelect(row)}
    >
      <span className="mon-c-time">{clockMs(l.ts)}</span>
      <span className="mon-c-db">{l.db}</span>
      <span className="mon-c-client">
        <Marked text={l.client} query={q} />
      </span>
      <span className="mon-c-cmd">
        <Marked text={l.command} query={q} />
      </span>
      <span className="mon-c-args">
        <Marked text={cellText(argsText(l))} query={q} />
      </span>
      {(l.truncated || l.moreArgs > 0) && (
        <span className="mon-cut" title="Arguments were cut: each at 1 KB, at most 64 kept">
          cut
        </span>
      )}
    </div>
  );
});
