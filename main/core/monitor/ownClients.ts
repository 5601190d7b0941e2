/**
 * From CLIENT LIST: the addresses of our own connections (named with `prefix`),
 * whose lines MONITOR viewers hide by default, and the output-buffer memory of
 * our MONITOR client, which must stay small. One pass, no regular expressions
 * over the whole reply.
 */
export function ownClients(
  clientList: string,
  prefix: string,
  monitorClientId: number | undefined,
): { own: Set<string>; monitorOmem: number | undefined } {
  const own = new Set<string>();
  let monitorOmem: number | undefined;
  for (const line of clientList.split('\n')) {
    if (line.length === 0) continue;
    let id: string | undefined;
    let addr: string | undefined;
    let name: string | undefined;
    let omem: string | undefined;
    for (const field of line.trim().split(' ')) {
      const eq = field.indexOf('=');
      if (eq < 0) continue;
      const k = field.slice(0, eq);
      const v = field.slice(eq + 1);
      if (k === 'id') id = v;
      else if (k === 'addr') addr = v;
      else if (k === 'name') name = v;
      else if (k === 'omem') omem = v;
    }
    if (addr !== undefined && name !== undefined && name.startsWith(prefix)) own.add(addr);
    if (monitorClientId !== undefined && id === String(monitorClientId) && omem !== undefined) monitorOmem = Number(omem);
  }
  return { own, monitorOmem };
}
