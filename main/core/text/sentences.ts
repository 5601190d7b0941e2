/**
 * Sentences joined with ". ", each without its own closing period, so a message
 * that already ends with one ("…try again.") does not read "try again..".
 */
export function sentences(...parts: string[]): string {
  return parts
    .map((p) => p.trim().replace(/\.+$/, ''))
    .filter((p) => p !== '')
    .join('. ');
}
