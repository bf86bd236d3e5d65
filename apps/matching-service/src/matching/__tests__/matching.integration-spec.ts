import type { OpenAPIObject } from '@nestjs/swagger';
import { MatchingMessages } from '@mate/contracts';
import { documentationGaps, OPENAPI_PATH } from '@mate/server-kit';
import {
  MATCHING_ROUTES,
  startMatchingTestBed,
  type MatchingTestBed,
} from '../../__tests__/matching-test-bed';

describe('matching-service (real PostgreSQL and Redis)', () => {
  let bed: MatchingTestBed;

  beforeAll(async () => {
    bed = await startMatchingTestBed('matching');
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('migrates its database and is ready', async () => {
    const tables: { table_name: string }[] = await bed.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['outbox', 'processed_event', 'candidate', 'swipe', 'match', 'impression']),
    );
    expect((await bed.call('GET', '/health/ready')).status).toBe(200);
  });

  it('refuses a visitor without a live session on every route', async () => {
    for (const [method, route] of MATCHING_ROUTES) {
      const path = route();
      expect({ method, path, status: (await bed.call(method, path)).status }).toEqual({
        method,
        path,
        status: 401,
      });
    }
  });

  it('validates the limit and the member id with clear messages', async () => {
    const member = await bed.member();
    for (const limit of ['0', '51', 'ten', '2.5', '-1']) {
      const res = await bed.call('GET', `/api/matches/suggestions?limit=${limit}`, { token: member.token });
      expect({ limit, status: res.status, body: res.body }).toEqual({
        limit,
        status: 400,
        body: expect.objectContaining({ error: 'limit must be a whole number from 1 to 50' }),
      });
    }
    const unknownField = await bed.call('GET', '/api/matches/suggestions?limit=5&sort=age', {
      token: member.token,
    });
    expect(unknownField).toMatchObject({ status: 400, body: { error: 'Unknown field: sort' } });
    const badId = await bed.call('POST', '/api/matches/like/not-a-uuid', { token: member.token });
    expect(badId).toMatchObject({ status: 404, body: { error: MatchingMessages.memberNotFound } });
  });

  it('answers no suggestions to a member matching has not heard of', async () => {
    const stranger = await bed.signIn();
    const res = await bed.call('GET', '/api/matches/suggestions', { token: stranger.token });
    expect(res).toMatchObject({ status: 200, body: [] });
  });

  it('documents every route it serves (OpenAPI, combined by the gateway at /api/docs)', async () => {
    const res = await bed.call<OpenAPIObject>('GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/api/matches/like/{userId}',
      '/api/matches/likes-received',
      '/api/matches/my-matches',
      '/api/matches/pass/{userId}',
      '/api/matches/rewind',
      '/api/matches/stats',
      '/api/matches/suggestions',
    ]);
    expect(documentationGaps(bed.app, res.body)).toEqual([]);
  });
});
