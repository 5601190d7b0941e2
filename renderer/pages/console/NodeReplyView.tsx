import { useMemo, useState, type ReactNode } from 'react';
import type { NodeReply, ReplyNode } from '../../../app/schemas/console';
import { replyText } from '../../../app/replyText';
import { DownloadButton } from '../../components/DownloadButton';
import { formatLatency } from '../../lib/format';
import { CopyButton } from './CopyButton';
import { cutNote, downloadName } from './cutText';
import { RawText } from './RawText';
import { foldableNodes, isAggregate } from './replyRows';
import { ReplyTree } from './ReplyTree';
import './reply.css';

interface Props {
  reply: NodeReply;
  command: string;
  /** Raw: the text `redis-cli --raw` prints, else the typed tree. */
  raw: boolean;
  /** The run asked for its download as raw text. */
  fileRaw: boolean;
  /** What heads it on the left: the command line (one node answered) or the node (a column of several). */
  lead: ReactNode;
  /** Several nodes answered: the copy button names the node. */
  showNode: boolean;
}

/** One node's answer: its time, the reply (tree or raw text), an error's hint, and the download of a reply past the display bound. */
export function NodeReplyView({ reply, command, raw, fileRaw, lead, showNode }: Props) {
  const [folded, setFolded] = useState<ReadonlySet<ReplyNode>>(() => new Set());
  const nested = isAggregate(reply.reply);
  const rawText = useMemo(() => (raw ? replyText(reply.reply, 'raw') : ''), [raw, reply.reply]);
  const toggle = (node: ReplyNode) =>
    setFolded((f) => {
      const next = new Set(f);
      if (!next.delete(node)) next.add(node);
      return next;
    });

  return (
    <section
      className="cn-node"
      data-testid="console-node-reply"
      data-address={reply.address}
      data-type={reply.reply.t}
      aria-label={`Reply of ${reply.address}`}
    >
      <div className="cn-node-head">
        {lead}
        <span className="cn-spacer" />
        <span className="muted cn-ms" data-testid="console-ms" title="From sending the command to the reply's last byte">
          {formatLatency(reply.ms)}
        </span>
        {nested && !raw && (
          <>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setFolded(new Set(foldableNodes(reply.reply)))}>
              Fold all
            </button>
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setFolded(new Set())} disabled={folded.size === 0}>
              Unfold all
            </button>
          </>
        )}
        <CopyButton text={() => replyText(reply.reply, raw ? 'raw' : 'formatted')} label={showNode ? `Copy the reply of ${reply.address}` : 'Copy the reply'} />
      </div>
      {raw ? <RawText text={rawText} /> : <ReplyTree reply={reply.reply} folded={folded} onToggle={toggle} />}
      {reply.hint !== undefined && (
        <p className="cn-hint" data-testid="console-hint">
          {reply.hint}
        </p>
      )}
      {reply.cut !== undefined && (
        <div className="cn-cut" role="note" data-testid="console-cut">
          <span>{cutNote(reply.cut, reply.reply)}</span>
          <DownloadButton
            source={{ stream: 'console.download', input: { downloadId: reply.cut.downloadId } }}
            fileName={downloadName(command, reply.address, fileRaw)}
            testId="console-download"
          />
        </div>
      )}
    </section>
  );
}
