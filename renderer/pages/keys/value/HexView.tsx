import { hexLine, hexLineCount } from './hexDump';
import { VirtualRows } from './VirtualRows';

/** The loaded bytes as `hexdump -C` prints them; each line is made only as it scrolls into view. */
export function HexView({ bytes }: { bytes: Uint8Array }) {
  return (
    <VirtualRows
      label="Value as hex"
      testId="kv-hex"
      className="kv-hex"
      count={hexLineCount(bytes.length)}
      rowHeight={18}
      maxHeight={460}
      row={(i) => {
        const l = hexLine(bytes, i);
        return (
          <>
            <span className="kv-hex-off">{l.offset}</span>
            <span className="kv-hex-bytes">{l.hex}</span>
            <span className="kv-hex-ascii">{l.ascii}</span>
          </>
        );
      }}
    />
  );
}
