import type { ValueBytes } from '../../../../app/schemas/keys';
import { ELEMENT_MAX_BYTES, valueBytes } from '../keyRef';

/**
 * Bytes one page of a collection carries before the rest of its elements are cut short:
 * 1,000 fields of 16 KB each, as text and base64, would be a 70 MB reply. Past the budget an
 * element keeps its first SHORT_ELEMENT_BYTES (still marked truncated, its full length given).
 */
export const PAGE_BUDGET_BYTES = 2 * 1024 * 1024;
export const SHORT_ELEMENT_BYTES = 1024;

/** Cuts each element of one page to ELEMENT_MAX_BYTES, and shorter once the page's budget is spent. */
export class PageCutter {
  private spent = 0;

  cut(buf: Buffer): ValueBytes {
    const max = this.spent >= PAGE_BUDGET_BYTES ? SHORT_ELEMENT_BYTES : ELEMENT_MAX_BYTES;
    const out = valueBytes(buf, max);
    this.spent += Math.min(buf.length, max);
    return out;
  }
}
