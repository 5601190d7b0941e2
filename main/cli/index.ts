import { AppError } from '../../app/errors';
import { VERSION } from '../version';

const HELP = `cacheboard ${VERSION}: an admin console for Redis cache operations

Usage: cacheboard <command> [options]

Commands:
  serve        Serve the web build (UI + API) over HTTP and WebSocket.
               --auth required: sign-in even on loopback. See: cacheboard serve --help
               Env: PORT (7379), HOST (127.0.0.1), REDIS_URL, CACHEBOARD_CONFIG,
                    CACHEBOARD_DATA_DIR, CACHEBOARD_SECRET_KEY, CACHEBOARD_AUTH,
                    CACHEBOARD_USERS, CACHEBOARD_PUBLIC_URL, CACHEBOARD_TLS_CERT/KEY
               Without REDIS_URL or CACHEBOARD_CONFIG it starts a private redis-server.
  info         One snapshot of a node and every node discovered from it.
               See: cacheboard info --help
  user         Add, remove or list web users: cacheboard user add NAME --role ops
               See: cacheboard user --help
  load FILE    Bulk-load a file (resp, commands, csv, tsv, ndjson) into Redis,
               staged and switched with SWAPDB by default. See: cacheboard load --help
  sample       What a DB's keyspace is made of (types, encodings, sizes, TTLs,
               biggest keys, prefixes), by RANDOMKEY sample or SCAN census.
               See: cacheboard sample --help
  trials       Time round trips against pipelines, MULTI/EXEC and multiplexing,
               or load the server like redis-benchmark: pipeline|multiplex|load.
               See: cacheboard trials --help
  audience     Count an audience by attributes and its activity per day, timing
               four storage/query strategies side by side.
               See: cacheboard audience --help
  demo-data    Write a synthetic TV audience (bitmaps, sets, per-user zsets).
               See: cacheboard demo-data --help

Topology: info, load, sample, trials, audience and demo-data take --cluster [--seeds h:p,…] or
  --sentinel h:p,… --master-name NAME besides --url (see each command's --help).

Options:
  -h, --help     Show this help
  -v, --version  Print the version
`;

async function main(argv: string[]): Promise<number> {
  const [cmd] = argv;
  if (cmd === undefined || cmd === '-h' || cmd === '--help' || cmd === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (cmd === '-v' || cmd === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (cmd === 'load') {
    if (argv.includes('--help') || argv.includes('-h')) {
      const { LOAD_HELP } = await import('./loadArgs');
      process.stdout.write(LOAD_HELP);
      return 0;
    }
    const { load } = await import('./load');
    return load(argv.slice(1));
  }
  if (cmd === 'sample') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write((await import('./sampleArgs')).SAMPLE_HELP);
      return 0;
    }
    const { sample } = await import('./sample');
    return sample(argv.slice(1));
  }
  if (cmd === 'trials') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write((await import('./trialsArgs')).TRIALS_HELP);
      return 0;
    }
    const { trials } = await import('./trials');
    return trials(argv.slice(1));
  }
  if (cmd === 'audience') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write((await import('./audienceArgs')).AUDIENCE_HELP);
      return 0;
    }
    const { audience } = await import('./audience');
    return audience(argv.slice(1));
  }
  if (cmd === 'demo-data') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write((await import('./demoDataArgs')).DEMO_DATA_HELP);
      return 0;
    }
    const { demoData } = await import('./demoData');
    return demoData(argv.slice(1));
  }
  if (cmd === 'info') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write((await import('./info')).INFO_HELP);
      return 0;
    }
    const { info } = await import('./info');
    return info(argv.slice(1));
  }
  if (cmd === 'user') {
    const { user, USER_HELP } = await import('./user');
    if (argv.length === 1 || argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write(USER_HELP);
      return 0;
    }
    return user(argv.slice(1));
  }
  if (cmd === 'serve') {
    if (argv.includes('--help') || argv.includes('-h')) {
      process.stdout.write((await import('./serveArgs')).SERVE_HELP);
      return 0;
    }
    // Loaded on demand: --help must not pay for the server's dependency graph.
    const { serve } = await import('./serve');
    await serve(argv.slice(1));
    return -1; // keeps running
  }
  process.stderr.write(`cacheboard: unknown command "${cmd}"\n\n${HELP}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    const msg = e instanceof AppError ? e.message : e instanceof Error ? e.message : String(e);
    process.stderr.write(`cacheboard: ${msg}\n`);
    process.exit(1);
  },
);
