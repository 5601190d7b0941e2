import { AppError } from '../../app/errors';
import type { ExportEvent, ExportFormat } from '../../app/schemas/export';
import { runExport } from '../core/export';
import { ExportFile } from '../core/keys';
import { keyConnection } from '../core/keys/keyConnection';
import { runCliJob } from './cliJob';
import { withCliPool } from './cliPool';
import { oneOf, parseFlags } from './flags';
import { KEYS_HELP, matchFlag } from './keysArgs';
import { connectionFlags, TOPOLOGY_OPTIONS } from './topologyFlags';
import { specFromFlags } from './topologyFlags';

const OPTIONS = {
  url: { type: 'string' },
  ...TOPOLOGY_OPTIONS,
  match: { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string' },
  'no-ttls': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

const FORMATS: readonly ExportFormat[] = ['restore', 'ndjson', 'csv'];

/**
 * `cacheboard keys export`: --format restore (the default) is the bulk key action's export, with
 * its filters, pacing and resume (./keyActions.ts); ndjson and csv run the export job the page
 * runs (core/export) into --out, written to a temp file and renamed over it once whole.
 */
export async function keysExport(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const at = argv.findIndex((a) => a === '--format' || a.startsWith('--format='));
  const given = at < 0 ? undefined : argv[at]?.startsWith('--format=') ? argv[at]?.slice('--format='.length) : argv[at + 1];
  const format = oneOf('format', given, FORMATS) ?? 'restore';
  if (format === 'restore') {
    const rest = at < 0 ? argv : argv.filter((_, i) => i !== at && !(i === at + 1 && argv[at] === '--format'));
    return (await import('./keyActions')).keyActions('export', rest, env);
  }
  const v = parseFlags(argv, OPTIONS, KEYS_HELP);
  const match = matchFlag(v.match, 'price:eu:*');
  if (v.out === undefined) throw new AppError('VALIDATION', `--out FILE is required: where the export writes its ${format}`, 'out');
  const spec = specFromFlags(connectionFlags(v, env));
  const json = v.json ?? false;
  const file = await ExportFile.open(v.out);
  try {
    return await exportTo(file);
  } catch (e) {
    await file.discard();
    throw e;
  }
  async function exportTo(file: ExportFile): Promise<number> {
    return withCliPool(spec, async (pool, id) => {
      const redis = await keyConnection(pool, id, spec, spec.db);
      const result = await runCliJob<ExportEvent, Extract<ExportEvent, { kind: 'done' | 'cancelled' | 'failed' }>>({
        json,
        stopNote: 'Stopping; the file is left out (an export is kept only whole)…',
        progress: (e) =>
          e.kind === 'progress' ? `${e.counts.keys} keys${e.counts.total === null ? '' : ` of ${e.counts.total}`}, ${e.counts.bytes} bytes` : null,
        run: (emit, signal) =>
          runExport({ redis, source: { kind: 'pattern', match: match.toString('base64') }, format, ttls: !(v['no-ttls'] ?? false), sink: file }, emit, signal),
      });
      if (result === null || result.end.kind !== 'done') {
        await file.discard();
        return result?.code ?? 1;
      }
      await file.finish();
      const c = result.end.counts;
      const summary = { format, file: file.out, keys: c.keys, bytes: c.bytes, vanished: c.vanished, unsupported: c.unsupported };
      process.stdout.write(
        json
          ? `${JSON.stringify(summary)}\n`
          : `Exported ${c.keys} keys (${c.bytes} bytes) as ${format} to ${file.out}; skipped ${c.vanished} gone before they were read, ${c.unsupported} of a type ${format} cannot hold.\n`,
      );
      return 0;
    });
  }
}
