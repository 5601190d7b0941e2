import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../app/schemas/metrics';
import { alertsByNode, foldAlerts, forgetActive, groupAlerts, MAX_RESOLVED } from './alerts';

const alert = (id: string, over: Partial<Alert> = {}): Alert => ({
  id,
  kind: 'node_unreachable',
  severity: 'critical',
  address: 'a:1',
  message: 'down',
  since: 1000,
  ...over,
});

describe('alerts', () => {
  it('groups active (critical first, newest first) apart from resolved (latest resolve first)', () => {
    const map = foldAlerts(new Map(), [
      alert('w', { severity: 'warning', since: 5000 }),
      alert('c-old', { since: 1000 }),
      alert('c-new', { since: 3000 }),
      alert('r1', { resolvedAt: 2000 }),
      alert('r2', { resolvedAt: 4000 }),
    ]);
    const g = groupAlerts(map);
    expect(g.active.map((a) => a.id)).toEqual(['c-new', 'c-old', 'w']);
    expect(g.resolved.map((a) => a.id)).toEqual(['r2', 'r1']);
  });

  it('resolves an alert raised earlier, and never reopens it from a late replay', () => {
    let map = foldAlerts(new Map(), [alert('x')]);
    map = foldAlerts(map, [alert('x', { resolvedAt: 2000 })]);
    map = foldAlerts(map, [alert('x')]);
    expect(groupAlerts(map).active).toEqual([]);
    expect(groupAlerts(map).resolved[0]?.resolvedAt).toBe(2000);
  });

  it('keeps a bounded record of resolved alerts', () => {
    const many = Array.from({ length: MAX_RESOLVED + 20 }, (_, i) => alert(`r${i}`, { resolvedAt: i }));
    const map = foldAlerts(new Map(), [alert('live'), ...many]);
    const g = groupAlerts(map);
    expect(g.resolved).toHaveLength(MAX_RESOLVED);
    expect(g.resolved.at(-1)?.id).toBe('r20');
    expect(g.active).toHaveLength(1);
  });

  it('forgets active alerts before a resubscribe, keeping the resolved record', () => {
    const map = foldAlerts(new Map(), [alert('live'), alert('done', { resolvedAt: 5 })]);
    expect([...forgetActive(map).keys()]).toEqual(['done']);
  });

  it('counts active alerts per node with the worst severity', () => {
    const by = alertsByNode([alert('1', { severity: 'warning' }), alert('2'), alert('3', { address: 'b:1', severity: 'warning' })]);
    expect(by.get('a:1')).toEqual({ count: 2, severity: 'critical' });
    expect(by.get('b:1')).toEqual({ count: 1, severity: 'warning' });
  });
});
