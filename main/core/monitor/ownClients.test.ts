import { describe, expect, it } from 'vitest';
import { ownClients } from './ownClients';

const LIST = [
  'id=3 addr=127.0.0.1:50001 laddr=127.0.0.1:6379 fd=8 name=cacheboard:monitoring:p1 age=9 idle=0 flags=N db=0 omem=0 cmd=info',
  'id=4 addr=127.0.0.1:50002 laddr=127.0.0.1:6379 fd=9 name= age=9 idle=0 flags=N db=0 omem=0 cmd=get',
  'id=7 addr=127.0.0.1:50003 laddr=127.0.0.1:6379 fd=10 name=cacheboard:monitor:p1 age=9 idle=0 flags=O db=0 omem=20504 cmd=monitor',
  'id=8 addr=10.0.0.9:40000 laddr=127.0.0.1:6379 fd=11 name=app-cacheboard: age=1 idle=0 flags=N db=0 omem=0 cmd=set',
  '',
].join('\n');

describe('ownClients', () => {
  it('finds our connections by name prefix and the MONITOR client omem by id', () => {
    const r = ownClients(LIST, 'cacheboard:', 7);
    expect([...r.own].sort()).toEqual(['127.0.0.1:50001', '127.0.0.1:50003']);
    expect(r.monitorOmem).toBe(20504);
  });

  it('has no omem when the MONITOR client is not listed', () => {
    expect(ownClients(LIST, 'cacheboard:', 99).monitorOmem).toBeUndefined();
  });
});
