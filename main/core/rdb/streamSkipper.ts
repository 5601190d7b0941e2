import type { ValueCursor } from './valueCursor';

/**
 * A stream value (RDB_TYPE_STREAM_LISTPACKS 1 to 3, rdb.c's rdbLoadObject): the listpack nodes
 * (each a 16-byte master ID key and a listpack), the length, the last ID, from v2 the first ID,
 * the max deleted ID and entries-added, then the consumer groups with their pending entries
 * (PEL) and consumers (v3 adds each consumer's active time). XLEN is the stored length, so no
 * listpack needs opening beyond its string header.
 */
export async function skipStream(p: ValueCursor, version: 1 | 2 | 3): Promise<void> {
  const r = p.r;
  const rec = p.rec;
  const nodes = await p.len();
  for (let i = 0; i < nodes; i++) {
    await p.skipString(); // the node's master ID (16 bytes, big-endian ms and seq)
    rec.valueBytes -= p.sLen; // counted by the node below, not as an element
    if (!p.strHead()) await p.strHeadSlow();
    rec.nodes++;
    rec.valueBytes += p.sLen;
    if (p.sStored !== p.sLen) rec.compressed = true;
    await r.skip(p.sStored);
  }
  rec.largestElement = -1;
  rec.length = await p.len();
  await p.len(); // last ID ms
  await p.len(); // last ID seq
  if (version >= 2) {
    for (let i = 0; i < 4; i++) await p.len(); // first ID, max deleted ID
    await p.len(); // entries added
  }
  const groups = await p.len();
  rec.groups = groups;
  for (let g = 0; g < groups; g++) {
    await p.skipString(); // group name
    rec.valueBytes -= p.sLen;
    await p.len(); // last delivered ID ms
    await p.len(); // and seq
    if (version >= 2) await p.len(); // entries read
    const pel = await p.len();
    rec.pending += pel;
    // Each pending entry: 16-byte raw ID, 8-byte delivery time, delivery count (a length).
    for (let i = 0; i < pel; i++) {
      await r.skip(24);
      await p.len();
    }
    const consumers = await p.len();
    for (let c = 0; c < consumers; c++) {
      await p.skipString(); // consumer name
      rec.valueBytes -= p.sLen;
      await r.skip(version >= 3 ? 16 : 8); // seen time, and from v3 active time
      const owned = await p.len();
      await r.skip(16 * owned); // IDs of its pending entries (already counted in the group's PEL)
    }
  }
}
