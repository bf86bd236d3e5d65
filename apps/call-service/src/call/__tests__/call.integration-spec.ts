import type { OpenAPIObject } from '@nestjs/swagger';
import { documentationGaps, OPENAPI_PATH } from '@mate/server-kit';
import { startServiceTestBed, type ServiceTestBed } from '@mate/server-kit/testing';
import { AppModule } from '../../app.module';

describe('call-service (real PostgreSQL and Redis)', () => {
  let bed: ServiceTestBed;

  beforeAll(async () => {
    bed = await startServiceTestBed((env) => AppModule.forRoot(env), { label: 'call' });
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('migrates its database and is ready', async () => {
    const tables: { table_name: string }[] = await bed.dataSource.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.map((t) => t.table_name)).toEqual(expect.arrayContaining(['outbox', 'processed_event']));
    expect((await bed.call('GET', '/health/ready')).status).toBe(200);
  });

  it('answers a member with a live session and refuses a visitor without one', async () => {
    expect((await bed.call('GET', '/api/calls/me')).status).toBe(401);
    const member = await bed.signIn();
    const res = await bed.call('GET', '/api/calls/me', { token: member.token });
    expect(res).toMatchObject({ status: 200, body: { service: 'call-service', userId: member.userId } });
  });

  it('documents every route it serves (OpenAPI, combined by the gateway at /api/docs)', async () => {
    const res = await bed.call<OpenAPIObject>('GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths)).toEqual(['/api/calls/me']);
    expect(documentationGaps(bed.app, res.body)).toEqual([]);
  });
});
