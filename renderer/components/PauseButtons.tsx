/** A live list that can be frozen while its data keeps arriving, and emptied. */
export interface Pausable {
  paused: boolean;
  pause(): void;
  resume(): void;
  clear(): void;
}

interface Props {
  list: Pausable;
  /** `<prefix>-pause` is the Pause button's test id. */
  testPrefix: string;
  /** What the buttons' titles say, e.g. "lines" or "messages". */
  items: string;
  pauseDisabled?: boolean;
  clearDisabled: boolean;
}

/** Pause/Resume and Clear of a live page (Monitor, Pub/Sub): a frozen list, counters still counting. */
export function PauseButtons({ list, testPrefix, items, pauseDisabled = false, clearDisabled }: Props) {
  return (
    <>
      <button
        type="button"
        className="btn"
        aria-pressed={list.paused}
        onClick={() => (list.paused ? list.resume() : list.pause())}
        disabled={pauseDisabled}
        data-testid={`${testPrefix}-pause`}
        title={list.paused ? `Back to the newest ${items}` : `Freeze what is shown; ${items} and counters keep arriving`}
      >
        {list.paused ? 'Resume' : 'Pause'}
      </button>
      <button type="button" className="btn" onClick={() => list.clear()} disabled={clearDisabled}>
        Clear
      </button>
    </>
  );
}
