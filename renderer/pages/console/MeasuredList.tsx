import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type CSSProperties, type ReactNode } from 'react';

/** Lines are one line of text unless a long string wraps: placed by this guess, then measured. */
const LINE_PX = 20;
/** A reply taller than this scrolls inside its box: the console's other replies stay in reach. */
const MAX_PX = 460;

interface Props {
  count: number;
  /** A line's stable key (its place in the reply), so a fold keeps the lines' measured heights. */
  itemKey(index: number): string | number;
  line(index: number): ReactNode;
  /** Per line, e.g. its indent as a CSS variable. */
  lineStyle?(index: number): CSSProperties | undefined;
  lineAttrs?(index: number): Record<string, string>;
  label: string;
  className: string;
  testId: string;
}

/**
 * The lines of a reply in a box of at most MAX_PX: only those in view (plus a few) are in the
 * DOM, each measured once drawn (a long string wraps), so 20,000 lines draw as fast as ten.
 */
export function MeasuredList({ count, itemKey, line, lineStyle, lineAttrs, label, className, testId }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count,
    getScrollElement: () => ref.current,
    estimateSize: () => LINE_PX,
    overscan: 10,
    initialRect: { width: 800, height: MAX_PX },
    getItemKey: itemKey,
  });
  return (
    <div
      ref={ref}
      className={`cn-lines mono ${className}`}
      style={{ maxHeight: MAX_PX }}
      role="list"
      aria-label={label}
      data-testid={testId}
      data-lines={count}
    >
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => (
          <div
            key={item.key}
            ref={v.measureElement}
            role="listitem"
            className="cn-line"
            data-index={item.index}
            style={{ ...lineStyle?.(item.index), transform: `translateY(${item.start}px)` }}
            {...lineAttrs?.(item.index)}
          >
            {line(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
