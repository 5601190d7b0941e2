import { describe, expect, it } from 'vitest';
import { EndedViews } from './endedViews';

describe('EndedViews', () => {
  it('gives back the view a job ended with', () => {
    const views = new EndedViews<string>();
    views.keep('job-1', 'done');
    expect(views.get('job-1')).toBe('done');
    expect(views.get('job-2')).toBeUndefined();
  });

  it('remembers the newest twenty', () => {
    const views = new EndedViews<number>();
    for (let i = 0; i < 25; i++) views.keep(`job${i}`, i);
    expect(views.get('job0')).toBeUndefined();
    expect(views.get('job4')).toBeUndefined();
    expect(views.get('job5')).toBe(5);
    expect(views.get('job24')).toBe(24);
  });

  it('forgets the oldest beyond its size, counting a job kept again as new', () => {
    const views = new EndedViews<number>(2);
    views.keep('a', 1);
    views.keep('b', 2);
    views.keep('a', 3);
    views.keep('c', 4);
    expect(views.get('b')).toBeUndefined();
    expect(views.get('a')).toBe(3);
    expect(views.get('c')).toBe(4);
  });
});
