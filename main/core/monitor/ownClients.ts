import { parseClientList } from '../redis/clientList';

/**
 * From CLIENT LIST: the addresses of our own connections (named with `prefix`),
 * whose lines MONITOR viewers hide by default, and the output-buffer memory of
 * our MONITOR client, which must stay small.
 */
export function ownClients(clientList: string, prefix: string, monitorClientId: number | undefined): { own: Set<string>; monitorOmem: number | undefined } {
  const { clients } = parseClientList(clientList);
  const own = new Set(clients.filter((c) => c.name.startsWith(prefix)).map((c) => c.addr));
  const monitorOmem = monitorClientId === undefined ? undefined : clients.find((c) => c.id === String(monitorClientId))?.omem;
  return { own, monitorOmem };
}
