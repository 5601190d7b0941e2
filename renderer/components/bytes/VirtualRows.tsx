import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, type CSSProperties, type ReactNode } from 'react';
import './bytes.css';

interface Props {
  count: number;
  /** Every row is this tall, so rows are placed without measuring them. */
  rowHeight: number;
  /** The scroller's tallest height; shorter content shrinks it. */
  maxHeight?: number;
  row(index: number): ReactNode;
  /** Columns of each row (CSS grid), shared with a header drawn above. */
  columns?: string;
  className?: string;
  testId?: string;
  label: string;
}

/**
 * A scroller that puts only the rows in view (plus a few) in the DOM, whatever `count` is:
 * a 256 KB hex dump is 16,000 lines but some 40 elements.
 */
export function VirtualRows({ count, rowHeight, maxHeight = 420, row, columns, className, testId, label }: Props) {
  const ref = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({
    count,
    getScrollElement: () => ref.current,
    estimateSize: () => rowHeight,
    overscan: 8,
    initialRect: { width: 800, height: maxHeight },
  });
  const style = { maxHeight, '--kv-columns': columns } as CSSProperties;
  return (
    <div ref={ref} className={`kv-scroll ${className ?? ''}`} style={style} data-testid={testId} role="list" aria-label={label} tabIndex={0}>
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => (
          <div
            key={item.key}
            role="listitem"
            className="kv-row"
            data-index={item.index}
            style={{ height: rowHeight, transform: `translateY(${item.start}px)` }}
          >
            {row(item.index)}
          </div>
        ))}
      </div>
    </div>
  );
}
