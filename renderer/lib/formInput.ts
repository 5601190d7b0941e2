/** Helpers for forms whose inputs are checked by the contract's schema on the server. */

/**
 * A whole number as a number; empty as absent (the server's default applies).
 * Anything else goes out as typed, so the contract's schema rejects it with its own
 * message on this field: one validator, and no NaN (which JSON would turn into null).
 */
export function numberInput(raw: string): number | undefined {
  const s = raw.trim();
  if (s === '') return undefined;
  if (/^-?\d+$/.test(s)) return Number(s);
  return s as unknown as number;
}

/**
 * The message to show beside an input, in the page's words: the dispatcher prefixes
 * schema messages with their path ("mapping.value: value is required…"), and the core's
 * refusals name the contract field in parentheses ("Confirm to run there anyway
 * (confirmNonEmpty)", which the CLI turns into its flag). Beside the input, its place
 * already says which: both go.
 */
export function besideField(message: string, field: string | undefined, atInput = true): string {
  if (field === undefined || field === '') return pageWords(message);
  let text = message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  // A schema message that opens with the field's own identifier ("sampleEvery must be at least
  // 1"): beside its input that name is the schema's, not the page's, so it goes (not in an alert
  // box, `atInput` false, where it is the only hint of which input). A plain word ("port must be …") stays.
  const name = field.split('.').at(-1) ?? field;
  const opener = [field, name].find((n) => text.startsWith(`${n} `));
  if (atInput && /[a-z][A-Z]/.test(name) && opener !== undefined) text = text.charAt(opener.length + 1).toUpperCase() + text.slice(opener.length + 2);
  return pageWords(text.replaceAll(` (${field})`, ''));
}

/**
 * A core message written for both shells as the page says it: `pass --allow-empty (on the
 * page: "Allow an empty or much smaller DB")` becomes `tick “Allow an empty or much smaller
 * DB”`; a CLI-only setting (`--max-shrink 40 or`, `the 50% --max-shrink allows`) goes, having no control here.
 */
export function pageWords(message: string): string {
  return message.replace(/pass (?:--[a-z-]+ \S+ or )?--[a-z-]+ \(on the page: "([^"]+)"\)/g, 'tick “$1”').replace(/(\d+%) --[a-z-]+ allows/g, '$1 allowed');
}
