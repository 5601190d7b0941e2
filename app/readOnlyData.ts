/** What a write refuses on a profile whose data must not be written (ProfileView.readOnlyData), and what to do instead. */
export interface ReadOnlyDataRefusal {
  /** What is refused, e.g. "its keys cannot be edited". */
  refused: string;
  /** What a writable profile lets the user do, e.g. "edit keys". */
  instead: string;
}

/**
 * The words for a read-only-data profile, the same on the server's READ_ONLY error
 * (main/core/pool/readOnlyProfile.ts) and on the page that hides the control: the embedded
 * demo server, or a profile the server's config file marks `"readOnly": true`.
 */
export function readOnlyDataText(profile: { name: string; source: 'user' | 'config' | 'embedded' }, { refused, instead }: ReadOnlyDataRefusal): string {
  return profile.source === 'embedded'
    ? `"${profile.name}" is the read-only embedded server: ${refused}. Add a profile for a server of your own to ${instead}.`
    : `"${profile.name}" is marked "readOnly" in the server's config file: ${refused}. Drop the mark from its entry (and restart serve) to ${instead}.`;
}
