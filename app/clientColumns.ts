import { CLIENT_MARKS, type ClientColumns, type ClientMark, type ClientRow } from './schemas/clients';

/** The marks as a bit set: bit k is CLIENT_MARKS[k]. */
export function markBits(marks: readonly ClientMark[]): number {
  let bits = 0;
  for (const m of marks) bits |= 1 << CLIENT_MARKS.indexOf(m);
  return bits;
}

export function hasMark(bits: number, mark: ClientMark): boolean {
  return (bits & (1 << CLIENT_MARKS.indexOf(mark))) !== 0;
}

export function marksOf(bits: number): ClientMark[] {
  return CLIENT_MARKS.filter((_, k) => (bits & (1 << k)) !== 0);
}

/** Clients as the wire carries them: a column per field. */
export function toColumns(rows: readonly ClientRow[]): ClientColumns {
  const pick = <K extends keyof ClientRow>(k: K) => rows.map((r) => r[k]);
  return {
    id: pick('id'),
    addr: pick('addr'),
    name: pick('name'),
    user: pick('user'),
    db: pick('db'),
    cmd: pick('cmd'),
    age: pick('age'),
    idle: pick('idle'),
    flags: pick('flags'),
    subs: pick('subs'),
    qbuf: pick('qbuf'),
    argvMem: pick('argvMem'),
    multiMem: pick('multiMem'),
    omem: pick('omem'),
    totMem: pick('totMem'),
    kind: pick('kind'),
    limitShare: rows.map((r) => r.limitShare ?? null),
    lib: rows.map((r) => r.lib ?? ''),
    netIn: rows.map((r) => r.netIn ?? null),
    netOut: rows.map((r) => r.netOut ?? null),
    cmds: rows.map((r) => r.cmds ?? null),
    marks: rows.map((r) => markBits(r.marks)),
  };
}

/** Client `i` of the columns, as one object (a dialog's client, a test's). */
export function clientAt(c: ClientColumns, i: number): ClientRow {
  const share = c.limitShare[i] ?? null;
  const lib = c.lib[i] ?? '';
  const netIn = c.netIn[i] ?? null;
  const netOut = c.netOut[i] ?? null;
  const cmds = c.cmds[i] ?? null;
  return {
    id: c.id[i] ?? '',
    addr: c.addr[i] ?? '',
    name: c.name[i] ?? '',
    user: c.user[i] ?? '',
    db: c.db[i] ?? 0,
    cmd: c.cmd[i] ?? '',
    age: c.age[i] ?? 0,
    idle: c.idle[i] ?? 0,
    flags: c.flags[i] ?? '',
    subs: c.subs[i] ?? 0,
    qbuf: c.qbuf[i] ?? 0,
    argvMem: c.argvMem[i] ?? 0,
    multiMem: c.multiMem[i] ?? 0,
    omem: c.omem[i] ?? 0,
    totMem: c.totMem[i] ?? 0,
    kind: c.kind[i] ?? 'normal',
    ...(share === null ? {} : { limitShare: share }),
    ...(lib === '' ? {} : { lib }),
    ...(netIn === null ? {} : { netIn }),
    ...(netOut === null ? {} : { netOut }),
    ...(cmds === null ? {} : { cmds }),
    marks: marksOf(c.marks[i] ?? 0),
  };
}

/** Every client of the columns, as objects. */
export function clientRows(c: ClientColumns): ClientRow[] {
  return c.id.map((_, i) => clientAt(c, i));
}
