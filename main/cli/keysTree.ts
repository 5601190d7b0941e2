import type { StreamEvent } from '../../app/contract';
import { buildIndex } from '../core/keys/index/buildIndex';
import { indexTargets } from '../core/keys/index/indexTargets';
import { KeyIndex, type Folder } from '../core/keys/index/keyIndex';
import { keyName } from '../core/text/keyText';
import { runCliJob } from './cliJob';
import { withCliPool } from './cliPool';
import { parseKeysTreeArgs } from './keysArgs';
import { specFromFlags } from './topologyFlags';

interface TreeOut {
  prefix: string;
  count: number;
  children: TreeOut[];
  /** Folders left out of `children` by --limit. */
  more?: number;
}

/** The CLI keeps counts only (no names) for a one-shot tree, with up to 256 MB of folders. */
const CLI_BUDGET = 0;
const CLI_FOLDER_BUDGET = 256 * 1024 * 1024;

/** `cacheboard keys tree`: one paced SCAN of every master, then the folders to --depth. */
export async function keysTree(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseKeysTreeArgs(argv, env);
  const spec = specFromFlags(args);
  const targets = await withCliPool(spec, (pool, id) => indexTargets(pool, id, spec, spec.db));
  const sep = Buffer.from(args.separator, 'utf8');
  const index = new KeyIndex(sep, CLI_BUDGET, CLI_FOLDER_BUDGET);
  const run = await runCliJob({
    json: args.json,
    stopNote: 'Stopping: printing the tree scanned so far…',
    progress: (e: StreamEvent<'keys.index.progress'>) =>
      e.kind === 'progress' ? `scanned ${e.state.scanned.toLocaleString('en-US')} of ${e.state.total.toLocaleString('en-US')} keys` : null,
    run: (emit, signal) => buildIndex(targets(`cacheboard:keys:cli${process.pid}`), index, emit, signal),
  });
  if (run === null) return 1;
  const { state } = run.end;
  const nodes = children(index.root, Buffer.alloc(0), sep, args.depth, args.limit);
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ total: state.scanned, complete: state.complete, seconds: round(state.seconds), nodes })}\n`);
  } else {
    const lines = [
      `${state.scanned.toLocaleString('en-US')} keys${state.complete ? '' : ' (incomplete: stopped before every key was scanned)'} in ${round(state.seconds)} s`,
    ];
    const draw = (list: TreeOut[], indent: string): void => {
      for (const n of list) {
        lines.push(`${indent}${n.prefix}  ${n.count.toLocaleString('en-US')}`);
        draw(n.children, `${indent}  `);
        if (n.more !== undefined) lines.push(`${indent}  … ${n.more} more folders`);
      }
    };
    draw(nodes, '  ');
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return run.code;
}

function children(folder: Folder, prefix: Buffer, sep: Buffer, depth: number, limit: number): TreeOut[] {
  if (depth === 0 || folder.children === null) return [];
  const all = [...folder.children].sort(([a, fa], [b, fb]) => fb.count - fa.count || (a < b ? -1 : a > b ? 1 : 0));
  return all.slice(0, limit).map(([seg, f]) => {
    const path = Buffer.concat([prefix, Buffer.from(seg, 'latin1'), sep]);
    const kids = children(f, path, sep, depth - 1, limit);
    const out: TreeOut = { prefix: keyName(path).text, count: f.count, children: kids };
    const shown = f.children === null || depth === 1 ? 0 : Math.min(limit, f.children.size);
    if (depth > 1 && f.children !== null && f.children.size > shown) out.more = f.children.size - shown;
    return out;
  });
}

const round = (s: number): number => Math.round(s * 1000) / 1000;
