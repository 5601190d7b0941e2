import { CONFIG_GROUPS, type ConfigCell, type ConfigNode, type ConfigParam, type ConfigView } from '../../../app/schemas/config';
import { refusalNote } from './configRefusal';
import { differences, worst } from './differences';
import type { NodeRead } from './readConfig';
import { groupOf } from './paramGroups';
import { newestListed } from '../text/configAliases';
import { isSecret, scrub } from '../text/configSecrets';

/** Every secret value any node holds: scrubbed from texts that came from the servers. */
export function secretValues(reads: readonly NodeRead[]): string[] {
  const out = new Set<string>();
  for (const r of reads) for (const [name, value] of r.values ?? []) if (isSecret(name, [value])) out.add(value);
  return [...out];
}

/**
 * Each node's parameters under one name across the nodes: the newest name of the parameter any
 * node lists (configAliases.ts). A Redis 7 node's masterauth and a Valkey node's primaryauth are
 * one row, compared as one, instead of two rows each "missing" on the other node.
 */
function oneNameEach(reads: readonly NodeRead[]): NodeRead[] {
  const listed = new Set(reads.flatMap((r) => [...(r.values?.keys() ?? [])]));
  const rename = (name: string): string => newestListed(name, listed);
  return reads.map((r) => {
    if (r.values === undefined) return r;
    const aliases = new Map<string, string[]>();
    for (const [name, old] of r.aliases ?? []) aliases.set(rename(name), [...(aliases.get(rename(name)) ?? []), ...old]);
    const values = new Map<string, string>();
    for (const [name, value] of r.values) {
      const row = rename(name);
      if (row !== name) aliases.set(row, [...(aliases.get(row) ?? []), name]);
      values.set(row, value);
    }
    return { ...r, values, aliases };
  });
}

function nodeOf(r: NodeRead, secrets: readonly string[]): ConfigNode {
  return {
    address: r.ref.address,
    role: r.ref.role,
    ...(r.ref.master === undefined ? {} : { master: r.ref.master }),
    state: r.state,
    ...(r.error === undefined ? {} : { error: scrub(r.error, secrets) }),
    ...(r.configFile === undefined ? {} : { configFile: r.configFile }),
    ...(r.version === undefined ? {} : { version: r.version }),
    ...(r.server === undefined ? {} : { server: r.server }),
  };
}

/**
 * What the page gets: the nodes in the order listed, every parameter any node has (grouped,
 * sorted by name within its group), one cell per node, the differences, and the one refusal
 * note. Secrets go out as "set" or "not set" only: their values stay in this function.
 */
export function configView(nodeReads: readonly NodeRead[], topology: ConfigView['topology'], nodesLeftOut: number): ConfigView {
  const reads = oneNameEach(nodeReads);
  const secrets = secretValues(reads);
  const diffs = differences(
    reads.map((r) => ({ address: r.ref.address, role: r.ref.role, ...(r.ref.master === undefined ? {} : { master: r.ref.master }), values: r.values })),
  );
  const names = new Set<string>();
  const aliases = new Map<string, Set<string>>();
  for (const r of reads) {
    for (const name of r.values?.keys() ?? []) names.add(name);
    for (const [name, old] of r.aliases ?? []) aliases.set(name, new Set([...(aliases.get(name) ?? []), ...old]));
  }
  const order = (g: string) => CONFIG_GROUPS.indexOf(g as (typeof CONFIG_GROUPS)[number]);
  const params: ConfigParam[] = [...names]
    .map((name) => {
      const held = reads.flatMap((r) => (r.values?.has(name) === true ? [r.values.get(name) ?? ''] : []));
      const secret = isSecret(name, held);
      const cells = reads.map((r): ConfigCell => {
        const value = r.values?.get(name);
        const diff = diffs.get(r.ref.address)?.get(name);
        return {
          ...(value === undefined ? {} : secret ? { secretSet: value !== '' } : { value }),
          ...(diff === undefined ? {} : { diff }),
        };
      });
      const differs = worst(cells.map((c) => c.diff?.kind));
      const old = aliases.get(name);
      return {
        name,
        group: groupOf(name),
        secret,
        cells,
        ...(old === undefined ? {} : { aliases: [...old].sort() }),
        ...(differs === undefined ? {} : { differs }),
      };
    })
    .sort((a, b) => order(a.group) - order(b.group) || a.name.localeCompare(b.name, 'en'));

  const refused = reads.filter((r) => r.refusal !== undefined);
  const first = refused[0]?.refusal;
  return {
    topology,
    nodes: reads.map((r) => nodeOf(r, secrets)),
    params,
    ...(first === undefined ? {} : { refusal: refusalNote(first.kind, first.reply, refused.length, reads.length) }),
    ...(nodesLeftOut > 0 ? { nodesLeftOut } : {}),
    readAt: Date.now(),
  };
}
