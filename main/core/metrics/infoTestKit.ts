import { readFileSync } from 'node:fs';
import { parseInfo, type InfoSections } from '../info/parseInfo';

/**
 * INFO ALL replies captured from real redis-server 7.0.15 processes: a master
 * with two replicas polled twice ~1.1 s apart (SETs, GETs, then INCRs between),
 * one of its replicas, the same replica after its master was killed, and a
 * standalone server with appendonly yes.
 */
export type Fixture = 'master-first' | 'master-second' | 'replica' | 'replica-link-down' | 'aof-on';

export function infoFixtureText(name: Fixture): string {
  return readFileSync(new URL(`./fixtures/${name}.info.txt`, import.meta.url), 'utf8');
}

export function infoFixture(name: Fixture): InfoSections {
  return parseInfo(infoFixtureText(name));
}
