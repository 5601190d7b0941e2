import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../e2e/serveProcess';
import { eventually } from '../../testing/redis';

/**
 * `cacheboard serve` with no REDIS_URL starts its own redis-server and fills it with demo data:
 * its start-up output says so, where (that private server, not the user's), and how much, the
 * number being what the load actually wrote.
 */
describe('cacheboard serve start-up output', () => {
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe({});
  }, 30_000);
  afterAll(async () => {
    await serve.stop();
  });

  it('announces the demo load into its private redis-server, then its size as loaded', async () => {
    const started =
      /demo Redis: loading the demo audience \(([\d,]+) users × (\d+) days\) into the private redis-server on 127\.0\.0\.1:(\d+) \(started by Cacheboard, not one of your servers\)/.exec(
        serve.output(),
      );
    expect(started, serve.output()).not.toBeNull();
    const port = Number(started![3]);
    const loadedLine =
      /demo Redis: loaded ([\d,]+) demo keys \(([\d,]+) users × (\d+) days, [\d-]+ to [\d-]+\) into the private redis-server on 127\.0\.0\.1:(\d+) /;
    expect(await eventually(() => loadedLine.test(serve.output()), 60_000, 100), serve.output()).toBe(true);
    const loaded = loadedLine.exec(serve.output())!;
    expect(Number(loaded[4])).toBe(port);
    expect(loaded[2]).toBe(started![1]);
    const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true });
    await redis.connect();
    try {
      // The figure printed is the keys the server holds: read from the server, not restated.
      expect(Number(loaded[1]!.replace(/,/g, ''))).toBe(await redis.dbsize());
    } finally {
      redis.disconnect();
    }
  }, 90_000);
});
