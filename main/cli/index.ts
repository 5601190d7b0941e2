import { AppError } from '../../app/errors';
import { VERSION } from '../version';

interface Command {
  /** How the top-level help names it ("load FILE"), when more than its name. */
  label?: string;
  /** Its lines in the top-level help. */
  summary: string[];
  /** Its own --help text. */
  help(): Promise<string>;
  /** Runs it with the arguments after its name: the exit code, or -1 for a server that keeps running. */
  run(argv: string[]): Promise<number>;
  /** `cacheboard user` alone shows the help: it has subcommands and nothing to do without one. */
  bareIsHelp?: boolean;
}

/**
 * Every command, in the order the help lists them. Each loads its module with `import()` only
 * when it is asked for: --version and --help load no package, and `load` not the web server
 * (main/cli/launcher.test.ts).
 */
const COMMANDS: Record<string, Command> = {
  serve: {
    summary: [
      'Serve the web build (UI + API) over HTTP and WebSocket.',
      '--auth required: sign-in even on loopback. See: cacheboard serve --help',
      'Env: PORT (7379), HOST (127.0.0.1), REDIS_URL, CACHEBOARD_CONFIG,',
      '     CACHEBOARD_DATA_DIR, CACHEBOARD_SECRET_KEY, CACHEBOARD_AUTH,',
      '     CACHEBOARD_USERS, CACHEBOARD_PUBLIC_URL, CACHEBOARD_TLS_CERT/KEY',
      'Without REDIS_URL or CACHEBOARD_CONFIG it starts a private redis-server.',
    ],
    help: async () => (await import('./serveArgs')).SERVE_HELP,
    run: async (argv) => {
      await (await import('./serve')).serve(argv);
      return -1; // keeps running
    },
  },
  info: {
    summary: ['One snapshot of a node and every node discovered from it.', 'See: cacheboard info --help'],
    help: async () => (await import('./info')).INFO_HELP,
    run: async (argv) => (await import('./info')).info(argv),
  },
  user: {
    summary: ['Add, remove or list web users: cacheboard user add NAME --role ops', 'See: cacheboard user --help'],
    help: async () => (await import('./user')).USER_HELP,
    run: async (argv) => (await import('./user')).user(argv),
    bareIsHelp: true,
  },
  doctor: {
    summary: ['What Cacheboard left on a server (journal, staging DBs, scratch keys,', 'connections); --fix cleans it. See: cacheboard doctor --help'],
    help: async () => (await import('./doctor')).DOCTOR_HELP,
    run: async (argv) => (await import('./doctor')).doctor(argv),
  },
  load: {
    label: 'load FILE',
    summary: ['Bulk-load a file (resp, commands, csv, tsv, ndjson) into Redis,', 'staged and switched with SWAPDB by default. See: cacheboard load --help'],
    help: async () => (await import('./loadArgs')).LOAD_HELP,
    run: async (argv) => (await import('./load')).load(argv),
  },
  sample: {
    summary: [
      "What a DB's keyspace is made of (types, encodings, sizes, TTLs,",
      'biggest keys, prefixes), by RANDOMKEY sample or SCAN census.',
      'See: cacheboard sample --help',
    ],
    help: async () => (await import('./sampleArgs')).SAMPLE_HELP,
    run: async (argv) => (await import('./sample')).sample(argv),
  },
  trials: {
    summary: [
      'Time round trips against pipelines, MULTI/EXEC and multiplexing,',
      'or load the server like redis-benchmark: pipeline|multiplex|load.',
      'See: cacheboard trials --help',
    ],
    help: async () => (await import('./trialsArgs')).TRIALS_HELP,
    run: async (argv) => (await import('./trials')).trials(argv),
  },
  audience: {
    summary: [
      'Count an audience by attributes and its activity per day, timing',
      'four storage/query strategies side by side.',
      'See: cacheboard audience --help',
    ],
    help: async () => (await import('./audienceArgs')).AUDIENCE_HELP,
    run: async (argv) => (await import('./audience')).audience(argv),
  },
  keys: {
    label: 'keys SUB',
    summary: [
      'Browse keys: tree (a count per folder, whole DB), ls (a glob), get KEY;',
      'act on every key matching a glob: delete, expire, persist, export.',
      'See: cacheboard keys --help',
    ],
    help: async () => (await import('./keysArgs')).KEYS_HELP,
    run: async (argv) => (await import('./keys')).keys(argv),
    bareIsHelp: true,
  },
  'demo-data': {
    summary: ['Write a synthetic TV audience (bitmaps, sets, per-user zsets).', 'See: cacheboard demo-data --help'],
    help: async () => (await import('./demoDataArgs')).DEMO_DATA_HELP,
    run: async (argv) => (await import('./demoData')).demoData(argv),
  },
};

const commandLines = Object.entries(COMMANDS).flatMap(([name, { label = name, summary }]) =>
  summary.map((line, i) => `${i === 0 ? `  ${label.padEnd(13)}` : ' '.repeat(15)}${line}`),
);

const HELP = `cacheboard ${VERSION}: an admin console for Redis cache operations

Usage: cacheboard <command> [options]

Commands:
${commandLines.join('\n')}

Topology: info, load, sample, trials, audience, demo-data and keys take --cluster [--seeds h:p,…] or
  --sentinel h:p,… --master-name NAME besides --url (see each command's --help).

Options:
  -h, --help     Show this help
  -v, --version  Print the version
`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  if (cmd === undefined || cmd === '-h' || cmd === '--help' || cmd === 'help') {
    process.stdout.write(HELP);
    return 0;
  }
  if (cmd === '-v' || cmd === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, cmd) ? COMMANDS[cmd] : undefined;
  if (command === undefined) {
    process.stderr.write(`cacheboard: unknown command "${cmd}"\n\n${HELP}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h') || (command.bareIsHelp === true && rest.length === 0)) {
    process.stdout.write(await command.help());
    return 0;
  }
  return command.run(rest);
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
