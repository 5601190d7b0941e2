import { describe, expect, it } from 'vitest';
import { spanLabel } from './GapLabel';

describe('a gap span label', () => {
  it('is drawn only where its span holds it: side by side short spans print nothing, not "dddddown"', () => {
    const label = spanLabel('unreachable', 0);
    expect(label({ viewBox: { x: 10, y: 5, width: 30, height: 100 } })).toBeNull();
    expect(label({ viewBox: { x: 10, y: 5, width: 200, height: 100 } })).not.toBeNull();
    expect(label({})).toBeNull();
  });
});
