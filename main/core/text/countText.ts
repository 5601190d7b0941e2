/** 1200000 -> "1,200,000": counts in messages people read, grouped as the pages group them (en-US, as renderer/lib/format.ts). */
export function countText(n: number): string {
  return n.toLocaleString('en-US');
}
