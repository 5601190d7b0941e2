import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadPage } from '../../../../app/schemas/keys';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { readPage } from './readPage';
import { clientOf, type ValueClient } from './valueClient';
import { missingVectorCommands, VECTOR_SET_COMMANDS, vembNumbers, vinfoPairs } from './vectorSet';

describe('reading a vector set', () => {
  it("reads VINFO's pairs as the server names them", () => {
    // VINFO's reply in redis/docs content/commands/vinfo.md (RESP2: names as bulk strings, numbers as integers).
    const reply = ['quant-type', 'int8', 'vector-dim', 300, 'size', 3000000, 'max-level', 12, 'vset-uid', 1, 'hnsw-max-node-uid', 3000000].map((v) =>
      typeof v === 'string' ? Buffer.from(v) : v,
    );
    expect(vinfoPairs(reply)).toEqual([
      { name: 'quant-type', value: 'int8' },
      { name: 'vector-dim', value: '300' },
      { name: 'size', value: '3000000' },
      { name: 'max-level', value: '12' },
      { name: 'vset-uid', value: '1' },
      { name: 'hnsw-max-node-uid', value: '3000000' },
    ]);
    expect(vinfoPairs(null)).toEqual([]);
  });

  it("reads VEMB's numbers (bulk strings in RESP2), cut to the dimensions asked", () => {
    // VEMB word_embeddings SQL, the first five of 300 numbers, from the VEMB page of redis.io.
    const reply = ['0.18208661675453186', '0.08535309880971909', '0.1365649551153183', '-0.16501599550247192', '0.14225517213344574'].map((n) =>
      Buffer.from(n),
    );
    expect(vembNumbers(reply, 3)).toEqual([0.18208661675453186, 0.08535309880971909, 0.1365649551153183]);
    expect(vembNumbers(reply, 64)).toHaveLength(5);
    expect(vembNumbers(null, 8)).toEqual([]);
  });

  describe('on a server without the vector set commands (Redis 7.0)', () => {
    const redis = useRedis();
    let client: ValueClient;
    beforeAll(async () => {
      client = clientOf(await adminClient(redis()));
    });
    afterAll(closeAdmins);

    it('finds them missing by COMMAND INFO and refuses the page naming them, not with a Redis error', async () => {
      const missing = await missingVectorCommands(client);
      // On a server that has them (Redis 8), this premise is gone: said, not passed over.
      expect(missing, 'this server has the vector set commands').toEqual([...VECTOR_SET_COMMANDS]);
      await expect(readPage(client, Buffer.from('vec'), ReadPage.parse({ type: 'vectorset' }))).rejects.toMatchObject({
        code: 'UNSUPPORTED',
        message: expect.stringContaining('VCARD, VDIM, VINFO, VRANDMEMBER, VEMB'),
      });
    });
  });
});
