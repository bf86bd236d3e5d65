import type { OpenAPIObject } from '@nestjs/swagger';
import { documentationGaps, OPENAPI_PATH } from '@mate/server-kit';
import { startServiceTestBed, type ServiceTestBed } from '@mate/server-kit/testing';
import { AppModule } from '../../app.module';

describe('call-service (real PostgreSQL and Redis)', () => {
  let bed: ServiceTestBed;

  beforeAll(async () => {
    bed = await startServiceTestBed((env) => AppModule.forRoot(env), {
      label: 'call',
      env: { CALL_SWEEP_INTERVAL_MS: '0' },
    });
  }, 60_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  it('migrates its database and is ready', async () => {
    const tables: { table_name: string }[] = await bed.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'outbox',
        'processed_event',
        'call_record',
        'call_member',
        'call_match',
        'call_pair',
      ]),
    );
    expect((await bed.call('GET', '/health/ready')).status).toBe(200);
  });

  it('refuses a visitor without a session', async () => {
    expect((await bed.call('GET', '/api/calls/history')).status).toBe(401);
    expect((await bed.call('GET', '/api/calls/stats')).status).toBe(401);
  });

  it('documents every route it serves (OpenAPI, combined by the gateway at /api/docs)', async () => {
    const res = await bed.call<OpenAPIObject>('GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining(['/api/calls/history', '/api/calls/stats', '/api/calls/{id}']),
    );
    expect(documentationGaps(bed.app, res.body)).toEqual([]);
  });
});
