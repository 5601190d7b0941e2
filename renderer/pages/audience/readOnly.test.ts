import { describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../../app/schemas/audience';
import { readOnlyNote } from './readOnly';

describe('readOnlyNote', () => {
  it('blocks Run when no chosen strategy reads in place, naming what would', () => {
    expect(readOnlyNote([], STRATEGY_NAMES)).toMatchObject({ blocked: true, text: expect.stringContaining('Ask an ops user') });
    expect(readOnlyNote(['sets'], ['bitmap-lua'])).toMatchObject({ blocked: true, text: expect.stringContaining('choose sets') });
  });

  it('lets it run when one does, or while the expression is being checked', () => {
    expect(readOnlyNote(['sets'], STRATEGY_NAMES).blocked).toBe(false);
    expect(readOnlyNote(undefined, STRATEGY_NAMES).blocked).toBe(false);
  });
});
