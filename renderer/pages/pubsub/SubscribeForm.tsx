import { useId } from 'react';
import type { NodeLinkState } from '../../../app/schemas/pubsub';
import { typedNames } from './names';

export interface NamesDraft {
  channels: string;
  patterns: string;
  shardChannels: string;
}

export const EMPTY_DRAFT: NamesDraft = { channels: '', patterns: '', shardChannels: '' };

export type NamesField = keyof NamesDraft;

const FIELDS: { field: NamesField; label: string; hint: string; placeholder: string }[] = [
  { field: 'channels', label: 'Channels', hint: 'SUBSCRIBE', placeholder: 'orders\nnews.eu' },
  { field: 'patterns', label: 'Patterns', hint: 'PSUBSCRIBE: * ? [a-z]', placeholder: 'news.*' },
  { field: 'shardChannels', label: 'Shard channels', hint: 'SSUBSCRIBE, on the master owning the slot', placeholder: 'orders:{eu}' },
];

/** The draft's names as the contract carries them, or the first field with a bad line. */
export function draftNames(d: NamesDraft, cluster: boolean): { names: Record<NamesField, string[]>; errors: Partial<Record<NamesField, string>> } {
  const names: Record<NamesField, string[]> = { channels: [], patterns: [], shardChannels: [] };
  const errors: Partial<Record<NamesField, string>> = {};
  for (const { field } of FIELDS) {
    if (field === 'shardChannels' && !cluster) continue;
    const t = typedNames(d[field]);
    names[field] = t.b64;
    if (t.error !== undefined) errors[field] = t.error;
  }
  return { names, errors };
}

function NamesBox({
  field,
  label,
  hint,
  placeholder,
  value,
  onChange,
  error,
}: (typeof FIELDS)[number] & { value: string; onChange(v: string): void; error: string | undefined }) {
  const id = useId();
  return (
    <div className="field ps-names">
      <label htmlFor={id}>
        {label} <span className="muted">{hint}</span>
      </label>
      <textarea
        id={id}
        className="mono"
        rows={3}
        spellCheck={false}
        autoComplete="off"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error !== undefined}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
        data-testid={`pubsub-${field}`}
      />
      {error !== undefined && (
        <span className="field-error" id={`${id}-error`} data-testid={`pubsub-${field}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

const BADGE: Record<NodeLinkState, string> = {
  connecting: 'badge-connecting',
  subscribing: 'badge-connecting',
  live: 'badge-ready',
  reconnecting: 'badge-reconnecting',
  stopped: 'badge-closed',
};

/** Each node the subscription runs on, with its state for this page. */
export function NodeStates({ nodes }: { nodes: { address: string; state: NodeLinkState; message?: string; names: number }[] }) {
  if (nodes.length === 0) return null;
  return (
    <ul className="ps-nodes" aria-label="Subscriber connections">
      {nodes.map((n) => (
        <li key={n.address} data-testid="pubsub-node" data-address={n.address} data-state={n.state}>
          <span className="mono">{n.address}</span>
          <span className={`badge ${BADGE[n.state]}`} title={n.message}>
            {n.state}
          </span>
          <span className="muted">
            {n.names} name{n.names === 1 ? '' : 's'}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** One name a line, as names are shown (escapes: \xff, \n, \u202e); shard channels only on a cluster. */
export function SubscribeFields({
  draft,
  onDraft,
  cluster,
  errors,
}: {
  draft: NamesDraft;
  onDraft(d: NamesDraft): void;
  cluster: boolean;
  errors: Partial<Record<NamesField, string>>;
}) {
  return (
    <div className="ps-fields">
      {FIELDS.filter((f) => cluster || f.field !== 'shardChannels').map((f) => (
        <NamesBox key={f.field} {...f} value={draft[f.field]} onChange={(v) => onDraft({ ...draft, [f.field]: v })} error={errors[f.field]} />
      ))}
    </div>
  );
}
