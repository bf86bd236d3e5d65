import type { OpenAPIObject } from '@nestjs/swagger';
import { documentationGaps, OPENAPI_PATH } from '@mate/server-kit';
import { startServiceTestBed, type ServiceTestBed } from '@mate/server-kit/testing';
import { AppModule } from '../app.module';

/** notification-service's document matches what it serves: the push routes (issue 12). */
describe('notification-service OpenAPI document', () => {
  let svc: ServiceTestBed;

  beforeAll(async () => {
    svc = await startServiceTestBed((e) => AppModule.forRoot(e), { label: 'notification_openapi', env: { WORKERS: 'off' } });
  });

  afterAll(() => svc?.close());

  it('documents every route the service serves (health is left out on purpose)', async () => {
    const res = await svc.call<OpenAPIObject>('GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.paths).sort()).toEqual([
      '/api/notifications/preferences',
      '/api/notifications/subscribe',
      '/api/notifications/unsubscribe',
      '/api/notifications/vapid-public-key',
    ]);
    expect(documentationGaps(svc.app, res.body)).toEqual([]);
  });
});
