import { isUtf8 } from 'node:buffer';
import type { ExportType, ValuePage } from './keyPages';
import { pageJson, pageNeedsBase64 } from './valueJson';

/** One line of a readable export: a key's page, with the key, its type and its TTL. */
export interface ExportLine {
  key: Buffer;
  type: ExportType;
  /** Milliseconds left when exported; null: no TTL (or TTLs left out). */
  ttlMs: number | null;
  /** 0 for a key's first page; each further page of a big value is one more line (appended on load). */
  part: number;
  page: ValuePage;
}

/**
 * ndjson: `{"key"|"key_b64", "type", "ttl_ms", ["part",] "value"|"value_b64"}` per line. `part`
 * is written only from the second line of one key on, so a small key's line is just the four.
 */
export function ndjsonLine(l: ExportLine): string {
  const key = isUtf8(l.key) ? `"key":${JSON.stringify(l.key.toString('utf8'))}` : `"key_b64":${JSON.stringify(l.key.toString('base64'))}`;
  const b64 = pageNeedsBase64(l.page);
  const part = l.part > 0 ? `,"part":${l.part}` : '';
  return `{${key},"type":"${l.type}","ttl_ms":${l.ttlMs === null ? 'null' : l.ttlMs}${part},"${b64 ? 'value_b64' : 'value'}":${pageJson(l.page, b64)}}\n`;
}

/** The csv columns, in order (docs/export.md). */
export const CSV_COLUMNS = ['key', 'key_encoding', 'type', 'ttl_ms', 'part', 'value_encoding', 'value'] as const;
export const CSV_HEADER = `${CSV_COLUMNS.join(',')}\r\n`;

/**
 * csv (RFC 4180, CRLF): a string's value is its text; any other type's is the ndjson value's JSON
 * text. `*_encoding` is `text` or `base64` (for a JSON value: every string inside it is base64).
 * An empty ttl_ms is no TTL.
 */
export function csvRow(l: ExportLine): string {
  const keyText = isUtf8(l.key);
  const b64 = pageNeedsBase64(l.page);
  const value = l.page.type === 'string' ? (b64 ? l.page.bytes.toString('base64') : l.page.bytes.toString('utf8')) : pageJson(l.page, b64);
  const cells = [
    keyText ? l.key.toString('utf8') : l.key.toString('base64'),
    keyText ? 'text' : 'base64',
    l.type,
    l.ttlMs === null ? '' : String(l.ttlMs),
    String(l.part),
    b64 ? 'base64' : 'text',
    value,
  ];
  return `${cells.map(csvCell).join(',')}\r\n`;
}

function csvCell(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
