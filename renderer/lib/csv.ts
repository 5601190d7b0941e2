/**
 * CSV that is safe to open in a spreadsheet. Key names and prefixes come from the
 * server's users, so a key named `=HYPERLINK(…)` must not become a formula on an
 * analyst's machine (CSV injection): text cells that start with = + - @, a tab or a
 * carriage return get a leading single quote, which spreadsheets show as text.
 * Numbers are written as numbers: a negative number is data, not a formula.
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** Text that a spreadsheet would read as a formula, made inert with a leading `'`. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field: RFC 4180 quoting (commas, quotes, CR or LF inside), formulas neutralised. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = neutralise(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows to CSV text, CRLF line ends as RFC 4180 writes them. */
export function toCsv(rows: readonly (readonly CsvValue[])[]): string {
  return rows.map((r) => r.map(csvField).join(',')).join('\r\n') + (rows.length > 0 ? '\r\n' : '');
}
