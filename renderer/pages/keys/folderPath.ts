import { base64ToBytes, bytesToBase64 } from '../../../app/keyText';

/**
 * Every folder from the top down to `prefixB64` (itself included), as base64: `a:b:c:` by `:`
 * gives `a:`, `a:b:`, `a:b:c:`. A link or a reload that selects a deep folder opens the tree
 * down to it, so the folder is seen and its name known.
 */
export function folderPath(prefixB64: string, separator: string): string[] {
  const bytes = base64ToBytes(prefixB64);
  const sep = new TextEncoder().encode(separator);
  const out: string[] = [];
  if (sep.length === 0) return out;
  for (let i = 0; i + sep.length <= bytes.length; i++) {
    let hit = true;
    for (let j = 0; j < sep.length && hit; j++) hit = bytes[i + j] === sep[j];
    if (!hit) continue;
    out.push(bytesToBase64(bytes.subarray(0, i + sep.length)));
    i += sep.length - 1;
  }
  return out;
}
