import { useLayoutEffect, useRef, useState } from 'react';
import { hexLine, hexLineCount } from './hexDump';
import { VirtualRows } from './VirtualRows';

/** Below this width a 16-byte line does not fit: the dump prints 8 bytes a line. */
const WIDE_PX = 600;

/** The loaded bytes as `hexdump -C` prints them; each line is made only as it scrolls into view. */
export function HexView({ bytes }: { bytes: Uint8Array }) {
  const ref = useRef<HTMLDivElement>(null);
  const [perLine, setPerLine] = useState(16);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null) return;
    const fit = () => setPerLine(el.clientWidth >= WIDE_PX ? 16 : 8);
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} data-per-line={perLine}>
      <VirtualRows
        label="Value as hex"
        testId="kv-hex"
        className="kv-hex"
        count={hexLineCount(bytes.length, perLine)}
        rowHeight={18}
        maxHeight={460}
        row={(i) => {
          const l = hexLine(bytes, i, perLine);
          return (
            <>
              <span className="kv-hex-off">{l.offset}</span>
              <span className="kv-hex-bytes">{l.hex}</span>
              <span className="kv-hex-ascii">{l.ascii}</span>
            </>
          );
        }}
      />
    </div>
  );
}
