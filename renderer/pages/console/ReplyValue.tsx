import type { ReplyNode } from '../../../app/schemas/console';
import { formatBytes } from '../../lib/format';
import { aggregateSummary, emptyText, isAggregate } from './replyRows';

/**
 * One value of a reply on its line, as redis-cli words it (`"text"`, `(integer) 3`, `(nil)`,
 * `(error) ERR …`), coloured by its RESP type. Every value is React text: the server sends
 * strings escaped (`\xff`, `\n`, `\"`), and nothing here is ever markup.
 */
export function ReplyValue({ node }: { node: ReplyNode }) {
  if (isAggregate(node)) {
    const shown = 'items' in node ? node.items.length : node.entries.length;
    return <span className="cn-v-agg">{node.total === 0 && shown === 0 ? emptyText(node) : aggregateSummary(node)}</span>;
  }
  switch (node.t) {
    case 'simple':
      return <span className="cn-v-simple">{node.v}</span>;
    case 'error':
      return <span className="cn-v-error">(error) {node.v}</span>;
    case 'integer':
      return <span className="cn-v-num">(integer) {node.v}</span>;
    case 'double':
      return <span className="cn-v-num">(double) {node.v}</span>;
    case 'bignum':
      return <span className="cn-v-num">(big number) {node.v}</span>;
    case 'boolean':
      return <span className="cn-v-bool">({node.v ? 'true' : 'false'})</span>;
    case 'null':
      return <span className="cn-v-null">(nil)</span>;
    case 'bulk':
      return (
        <span className="cn-v-str">
          &quot;{node.v}&quot;
          <StringCut cut={node.cut} bytes={node.bytes} />
        </span>
      );
    case 'verbatim':
      return (
        <span className="cn-v-verbatim">
          <span className="tag" title="RESP3 verbatim string: its format">
            {node.format}
          </span>{' '}
          {verbatimText(node.v)}
          <StringCut cut={node.cut} bytes={node.bytes} />
        </span>
      );
  }
}

/**
 * A verbatim string (INFO, LATENCY DOCTOR on RESP3) is a text to read, as redis-cli prints
 * it: its escaped line breaks (`\r\n`, `\n`) become lines; an escaped backslash stays one.
 */
export function verbatimText(escaped: string): string {
  return escaped.replace(/\\\\|\\r\\n|\\n/g, (m) => (m === '\\\\' ? m : '\n'));
}

function StringCut({ cut, bytes }: { cut: boolean | undefined; bytes: number }) {
  if (cut !== true) return null;
  return (
    <span className="tag tag-warn" title="The display shows the string's start; the whole reply is in the download">
      cut: {formatBytes(bytes)} in all
    </span>
  );
}
