import type { OpenAPIObject } from '@nestjs/swagger';
import { SERVICES, serviceDefinition } from '@mate/contracts';
import { documentationGaps, OPENAPI_PATH, publicOperations } from '@mate/server-kit';
import { startServiceTestBed, type ServiceTestBed } from '@mate/server-kit/testing';
import { AppModule } from '../app.module';

describe('auth-service OpenAPI document', () => {
  let svc: ServiceTestBed;
  let document: OpenAPIObject;

  beforeAll(async () => {
    svc = await startServiceTestBed((e) => AppModule.forRoot(e), { label: 'auth_openapi' });
    const res = await svc.call<OpenAPIObject>('GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    document = res.body;
  });

  afterAll(() => svc?.close());

  it('documents every route the service serves, each with a 2xx answer', () => {
    expect(documentationGaps(svc.app, document)).toEqual([]);
  });

  it('leaves exactly the routes the gateway lets through without a session open', () => {
    expect(publicOperations(document).sort()).toEqual([...(serviceDefinition(SERVICES.auth)?.publicRoutes ?? [])].sort());
  });

  it('describes payloads and answers from the DTOs', () => {
    const register = document.paths['/api/auth/register']?.post;
    expect(register?.requestBody).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/RegisterDto' } } } });
    expect(register?.responses['201']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/AuthResponseDto' } } } });
    expect(register?.responses['409']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } } });
    expect(document.components?.schemas?.['RegisterDto']).toMatchObject({
      required: ['email', 'password'],
      properties: { email: { type: 'string', format: 'email' }, age: { type: 'integer', minimum: 18 } },
    });
    expect(document.paths['/api/sessions/{id}']?.delete?.security).toEqual([{ bearer: [] }]);
  });
});
