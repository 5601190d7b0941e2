/**
 * Whether a Host header names this machine by a loopback name. Local mode
 * answers only to those: a DNS-rebinding page reaches 127.0.0.1 under its own
 * name, and that name is what its Host header carries.
 */
export function hostIsLoopback(host: string | undefined): boolean {
  if (host === undefined) return false;
  let name = host;
  if (name.startsWith('[')) name = name.slice(1, name.indexOf(']'));
  else if (name.includes(':')) name = name.slice(0, name.lastIndexOf(':'));
  name = name.toLowerCase();
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}
