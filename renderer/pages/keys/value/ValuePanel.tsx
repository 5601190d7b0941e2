import type { ProfileView } from '../../../../app/schemas/connections';

export interface ValuePanelProps {
  profile: ProfileView;
  db: number;
  /** The open key's exact bytes, base64. */
  keyB64: string;
  /** The session may edit (ops, and the profile is not read-only). */
  canEdit: boolean;
  /** After an edit that renamed the key (new bytes, base64) or deleted it (null). */
  onKeyChanged(next: string | null): void;
}

/** One key: metadata, its value page by page in the views its type has, and (ops) its edits. */
export function ValuePanel({ keyB64 }: ValuePanelProps) {
  return (
    <section className="keys-value" data-testid="keys-value" data-key={keyB64}>
      <p>Not built yet.</p>
    </section>
  );
}
