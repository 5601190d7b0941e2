import { useState } from 'react';
import './bytes.css';
import { isJsonBranch, jsonChildren, jsonSummary } from './jsonValue';

/** Children drawn per step when a node opens: a 100,000-item array opens without 100,000 rows. */
const STEP = 200;

function Leaf({ v }: { v: unknown }) {
  const kind = v === null ? 'null' : typeof v;
  return <span className={`kv-json-${kind}`}>{JSON.stringify(v)}</span>;
}

/** One node: a key and its value; a branch folds, and opens (its first children) on click. */
function Node({ label, isIndex, value, open: initiallyOpen }: { label: string | undefined; isIndex: boolean; value: unknown; open: boolean }) {
  const [open, setOpen] = useState(initiallyOpen);
  const [shown, setShown] = useState(STEP);
  const branch = isJsonBranch(value);
  const name = label === undefined ? null : <span className="kv-json-key">{isIndex ? label : JSON.stringify(label)}: </span>;
  if (!branch) {
    return (
      <li className="kv-json-node kv-json-leaf">
        {name}
        <Leaf v={value} />
      </li>
    );
  }
  const kids = open ? jsonChildren(value) : [];
  return (
    <li className="kv-json-node">
      <button type="button" className="kv-json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? '▾' : '▸'}
      </button>
      {name}
      <span className="muted">{jsonSummary(value)}</span>
      {open && (
        <ul className="kv-json-list">
          {kids.slice(0, shown).map(([k, v]) => (
            <Node key={k} label={k} isIndex={Array.isArray(value)} value={v} open={false} />
          ))}
          {kids.length > shown && (
            <li>
              <button type="button" className="btn btn-small btn-ghost" onClick={() => setShown(shown + STEP)}>
                Show {Math.min(STEP, kids.length - shown)} more of {kids.length - shown}
              </button>
            </li>
          )}
        </ul>
      )}
    </li>
  );
}

/** Parsed JSON as a folding tree: only the opened nodes are drawn, so a big document costs what is opened. */
export function JsonTree({ value }: { value: unknown }) {
  return (
    <ul className="kv-json mono" data-testid="kv-json">
      <Node label={undefined} isIndex={false} value={value} open />
    </ul>
  );
}
