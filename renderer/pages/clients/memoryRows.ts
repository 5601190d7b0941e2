import type { MemoryByKind, NodeClients } from '../../../app/schemas/clients';

/** The parts tot-mem is made of, as CLIENT LIST names them; `other` is the rest (each client's fixed struct, its read buffer). */
export const MEMORY_KINDS = [
  { key: 'qbuf', label: 'query buffers (qbuf)', color: 'var(--series-1)' },
  { key: 'argvMem', label: 'arguments (argv-mem)', color: 'var(--series-6)' },
  { key: 'multiMem', label: 'MULTI queues (multi-mem)', color: 'var(--series-5)' },
  { key: 'omem', label: 'output buffers (omem)', color: 'var(--series-2)' },
  { key: 'other', label: 'the rest of tot-mem', color: 'var(--series-gray)' },
] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number]['key'];

export type MemoryRow = { node: string; total: number } & Record<MemoryKind, number>;

/** One stacked bar a node: its clients' memory by kind, adding up to their tot-mem. */
export function memoryRows(nodes: readonly Pick<NodeClients, 'address' | 'totals' | 'error'>[]): MemoryRow[] {
  return nodes
    .filter((n) => n.error === undefined)
    .map((n) => {
      const m: MemoryByKind = n.totals.memory;
      const parts = m.qbuf + m.argvMem + m.multiMem + m.omem;
      return { node: n.address, total: m.totMem, qbuf: m.qbuf, argvMem: m.argvMem, multiMem: m.multiMem, omem: m.omem, other: Math.max(0, m.totMem - parts) };
    });
}
