import type { OpenAPIObject } from '@nestjs/swagger';
import { documentationGaps, EventConsumer, OPENAPI_PATH } from '@mate/server-kit';
import { startSafetyTestBed, type SafetyTestBed } from '../../__tests__/safety-test-bed';

describe('safety-service (real PostgreSQL and Redis)', () => {
  let t: SafetyTestBed;

  beforeAll(async () => {
    t = await startSafetyTestBed('safety');
  }, 30_000);

  afterAll(async () => {
    await t?.close();
  }, 30_000);

  it('migrates its database, runs its consumer and evidence worker, and is ready', async () => {
    const tables: { table_name: string }[] = await t.bed.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.map((x) => x.table_name)).toEqual(
      expect.arrayContaining(['outbox', 'processed_event', 'safety_member', 'pair', 'block', 'report']),
    );
    expect(t.bed.app.get(EventConsumer).running).toBe(true);
    const ready = await t.bed.call<{ checks?: Record<string, unknown> }>('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(JSON.stringify(ready.body)).toContain('queue:jobs.safety-evidence');
  });

  it('needs a live session on every route', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    for (const [method, path] of [
      ['POST', `/api/safety/block/${id}`],
      ['DELETE', `/api/safety/block/${id}`],
      ['GET', '/api/safety/blocked'],
      ['POST', `/api/safety/report/${id}`],
      ['POST', `/api/safety/unmatch/${id}`],
    ]) {
      expect({ method, path, status: (await t.bed.call(method, path)).status }).toEqual({ method, path, status: 401 });
    }
  });

  it('documents every route it serves (OpenAPI, combined by the gateway at /api/docs)', async () => {
    const res = await t.bed.call<OpenAPIObject>('GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/api/safety/block/{userId}',
      '/api/safety/blocked',
      '/api/safety/report/{userId}',
      '/api/safety/unmatch/{userId}',
    ]);
    expect(documentationGaps(t.bed.app, res.body)).toEqual([]);
  });
});
