import { describe, expect, it } from 'vitest';
import { originOf, senderProblem, type FrameLike } from './senderCheck';

const main: FrameLike = { url: 'app://cacheboard/index.html', parent: null, processId: 7, routingId: 1 };

describe('senderProblem', () => {
  it('accepts the main frame on app://cacheboard', () => {
    expect(senderProblem({ ...main }, main)).toBeNull();
    expect(senderProblem({ ...main, url: 'app://cacheboard/connections#x' }, main)).toBeNull();
  });

  it('refuses a gone frame, a subframe, another frame and another origin', () => {
    expect(senderProblem(null, main)).toMatch(/gone/);
    expect(senderProblem({ ...main, parent: main, routingId: 2 }, main)).toMatch(/subframe/);
    expect(senderProblem({ ...main, routingId: 2 }, main)).toMatch(/main frame/);
    expect(senderProblem({ ...main, processId: 8 }, main)).toMatch(/main frame/);
    expect(senderProblem({ ...main, url: 'https://evil.example/?t=1' }, main)).toMatch(/https:\/\/evil\.example/);
    expect(senderProblem({ ...main, url: 'app://cacheboard.evil/' }, main)).not.toBeNull();
    expect(senderProblem({ ...main, url: 'file:///work/dist/renderer/index.html' }, main)).not.toBeNull();
  });
});

describe('originOf', () => {
  it('keeps only scheme and host, never path or query', () => {
    expect(originOf('https://evil.example:8443/steal?token=abc')).toBe('https://evil.example:8443');
    expect(originOf('nonsense')).toBe('unparseable URL');
  });
});
