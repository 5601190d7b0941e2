import { useEffect, useRef } from 'react';
import { CommandDocs } from './CommandDocs';
import type { Suggestion } from './completions';
import './complete.css';

interface Props {
  id: string;
  items: readonly Suggestion[];
  active: number;
  onPick(s: Suggestion): void;
  /** The option's element id, for the input's aria-activedescendant. */
  optionId(index: number): string;
}

/**
 * The autocomplete list (a listbox the input points into: the focus stays in the input) and,
 * beside it, the active choice's docs from the server's COMMAND DOCS. Mouse down, not click,
 * picks: the input keeps its focus.
 */
export function Suggestions({ id, items, active, onPick, optionId }: Props) {
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [active]);
  const current = items[active];
  // Names only (the server refused COMMAND DOCS): no panel that would repeat the name.
  const docs = current?.doc !== undefined && (current.doc.summary !== undefined || current.doc.syntax !== undefined) ? current.doc : undefined;
  return (
    <div className={docs === undefined ? 'cn-suggest cn-suggest-bare' : 'cn-suggest'} data-testid="console-suggestions">
      <ul ref={list} id={id} role="listbox" aria-label="Completions" className="cn-suggest-list mono">
        {items.map((s, i) => (
          <li
            key={`${s.kind}:${s.value}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className="cn-option"
            data-value={s.value}
            onMouseDown={(e) => {
              e.preventDefault();
              onPick(s);
            }}
          >
            <span className="cn-option-value">{s.value}</span>
            <span className="cn-option-kind">{s.kind === 'token' ? s.detail : (s.doc?.group ?? s.kind)}</span>
          </li>
        ))}
      </ul>
      {docs !== undefined && (
        <div className="cn-suggest-docs">
          <CommandDocs doc={docs} detail={current?.kind === 'token' ? current.detail : undefined} />
        </div>
      )}
    </div>
  );
}
