import type { CommandDoc } from '../../../app/schemas/console';

/** `HSET key field value [field value ...]`: the name and the server's syntax line. */
export function SyntaxLine({ doc, testId }: { doc: CommandDoc; testId?: string }) {
  return (
    <code className="cn-syntax mono" data-testid={testId}>
      <strong>{doc.name}</strong>
      {doc.syntax !== undefined && doc.syntax !== '' && ` ${doc.syntax}`}
    </code>
  );
}

/** What COMMAND DOCS says of a command, on one line: "since 2.0.0 · hash · O(1)…". */
export function docFacts(doc: CommandDoc): string {
  return [doc.since !== undefined ? `since ${doc.since}` : undefined, doc.group, doc.complexity].filter((s) => s !== undefined && s !== '').join(' · ');
}

/** A command's inline docs: syntax, summary and facts, as far as the server gave them. */
export function CommandDocs({ doc, detail }: { doc: CommandDoc; detail?: string }) {
  const facts = docFacts(doc);
  return (
    <div className="cn-docs" data-testid="console-docs">
      <SyntaxLine doc={doc} />
      {detail !== undefined && <div className="cn-docs-detail mono">{detail}</div>}
      {doc.summary !== undefined && <p className="cn-docs-summary">{doc.summary}</p>}
      {facts !== '' && <p className="muted cn-docs-facts">{facts}</p>}
    </div>
  );
}
