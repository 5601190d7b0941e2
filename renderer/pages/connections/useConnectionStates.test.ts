import { describe, expect, it } from 'vitest';
import { ProfileId } from '../../../app/schemas/common';
import type { ConnectionState } from '../../../app/schemas/connections';
import { foldStates } from './useConnectionStates';

const ev = (profileId: string, state: ConnectionState['state'], at: number): ConnectionState => ({ profileId: ProfileId.parse(profileId), state, at });

describe('foldStates', () => {
  it('keeps the latest state per profile', () => {
    const s = foldStates({}, [ev('a', 'connecting', 1), ev('b', 'idle', 1), ev('a', 'ready', 2)]);
    expect(s.a?.state).toBe('ready');
    expect(s.b?.state).toBe('idle');
  });
  it('ignores an event older than the state held', () => {
    const held = foldStates({}, [ev('a', 'error', 5)]);
    expect(foldStates(held, [ev('a', 'ready', 4)])).toBe(held);
  });
});
