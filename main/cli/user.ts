import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ROLES, type Role } from '../../app/define';
import { AppError } from '../../app/errors';
import { addUser, readUsers, removeUser } from '../server/auth/users';
import { usersFileFrom } from './dataDir';
import { ask } from './ttyAsk';

export const USER_HELP = `Usage:
  cacheboard user add NAME --role analyst|ops [--password-stdin]
  cacheboard user remove NAME
  cacheboard user list

Users of the web build, kept in $CACHEBOARD_USERS (default $CACHEBOARD_DATA_DIR/users.json)
as scrypt hashes. "add" asks for the password twice on a terminal; scripts pipe it with
--password-stdin (the first line of stdin). Adding an existing name sets a new password
and role. A running server follows the file: removing a user, changing their role or
setting a new password signs them out at once and closes their open pages' connections;
a removed user's running jobs (a demoted user's, where the new role may not run them) are
cancelled. The first user added to a server running without users turns sign-in on.
`;

export async function user(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [action, name, ...rest] = argv;
  const file = usersFileFrom(env);
  if (action === 'list') {
    for (const u of readUsers(file)) process.stdout.write(`${u.name}\t${u.role}\n`);
    return 0;
  }
  if (action === 'remove') {
    if (name === undefined) throw new AppError('VALIDATION', 'user remove needs a NAME', 'NAME');
    removeUser(file, name);
    process.stdout.write(`Removed ${name}. A running server signs them out at once.\n`);
    return 0;
  }
  if (action !== 'add') throw new AppError('VALIDATION', `unknown user action "${action ?? ''}": use add, remove or list`, 'action');
  if (name === undefined || name.startsWith('-')) throw new AppError('VALIDATION', 'user add needs a NAME', 'NAME');
  const roleAt = rest.indexOf('--role');
  const role = roleAt >= 0 ? rest[roleAt + 1] : undefined;
  if (role === undefined || !(ROLES as readonly string[]).includes(role)) {
    throw new AppError('VALIDATION', `--role must be one of ${ROLES.join(', ')}`, '--role');
  }
  const password = rest.includes('--password-stdin') ? await firstLineOfStdin() : await askTwice();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const added = await addUser(file, name, role as Role, password);
  process.stdout.write(`${added ? 'Added' : 'Updated'} ${name} (${role}) in ${file}\n`);
  return 0;
}

async function firstLineOfStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function askTwice(): Promise<string> {
  if (!process.stdin.isTTY) {
    throw new AppError('VALIDATION', 'no terminal to ask the password on: pipe it with --password-stdin', '--password-stdin');
  }
  const a = await ask('Password: ');
  const b = await ask('Again: ');
  if (a !== b) throw new AppError('VALIDATION', 'the two passwords differ', 'password');
  return a;
}
