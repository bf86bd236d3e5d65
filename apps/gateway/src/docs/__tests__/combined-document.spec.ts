import type { OpenAPIObject } from '@nestjs/swagger';
import { SERVICES } from '@mate/contracts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { CombinedApiDocument, combineDocuments } from '../combined-document';

const ok = (schema: string) => ({
  responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } } },
});

function serviceDocument(paths: OpenAPIObject['paths'], schemas: Record<string, unknown>): OpenAPIObject {
  return { openapi: '3.0.0', info: { title: 't', version: '1' }, paths, components: { schemas: schemas as never } };
}

describe('combineDocuments', () => {
  const auth = serviceDocument(
    { '/api/auth/me': { get: ok('UserResponseDto') }, '/api/profile/me': { get: ok('UserResponseDto') } },
    { UserResponseDto: { type: 'object', properties: { email: { type: 'string' } } }, Shared: { type: 'string' } },
  );
  const profile = serviceDocument(
    { '/api/profile/me': { put: { ...ok('UserResponseDto'), requestBody: { content: {} } } } },
    { UserResponseDto: { type: 'object', properties: { bio: { type: 'string' } } }, Shared: { type: 'string' } },
  );
  const combined = combineDocuments(
    [
      { service: SERVICES.auth, document: auth },
      { service: SERVICES.profile, document: profile },
    ],
    [SERVICES.notification],
  );

  it('keeps only the paths the gateway routes to the service that documents them', () => {
    expect(Object.keys(combined.paths)).toEqual(['/api/auth/me', '/api/profile/me']);
    expect(Object.keys(combined.paths['/api/profile/me'])).toEqual(['put']);
  });

  it('keeps an identical schema once and renames a different one that took the same name', () => {
    const schemas = combined.components?.schemas ?? {};
    expect(Object.keys(schemas).sort()).toEqual(['ErrorBodyDto', 'ProfileService_UserResponseDto', 'Shared', 'UserResponseDto']);
    expect(combined.paths['/api/profile/me']?.put?.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ProfileService_UserResponseDto' } } },
    });
    expect(combined.paths['/api/auth/me']?.get?.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/UserResponseDto' } } },
    });
  });

  it('adds what the gateway answers, tags by service, and names the services left out', () => {
    expect(Object.keys(combined.paths['/api/profile/me']?.put?.responses ?? {}).sort()).toEqual(['200', '413', '429', '503']);
    expect(Object.keys(combined.paths['/api/auth/me']?.get?.responses ?? {}).sort()).toEqual(['200', '429', '503']);
    expect(combined.paths['/api/auth/me']?.get?.tags).toEqual([SERVICES.auth]);
    expect(combined.info.description).toContain('notification-service');
  });
});

describe('CombinedApiDocument', () => {
  const silent = { warn: () => undefined } as unknown as Logger;
  let server: Server;
  let base: string;
  let answer: unknown;

  beforeAll(async () => {
    server = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify(answer)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    ['an echo of the request', { method: 'GET', url: '/openapi.json' }],
    ['paths that are not objects', { openapi: '3.0.0', paths: { '/api/auth/me': 'x' } }],
    ['a list', []],
    ['null', null],
  ])('lists a service that answers %s as unavailable instead of failing the whole document', async (_name, body) => {
    answer = body;
    const docs = new CombinedApiDocument([{ service: SERVICES.auth, url: base }], silent);
    const document = await docs.document();
    expect(document.paths).toEqual({});
    expect(document.info.description).toContain(`could not be fetched): ${SERVICES.auth}`);
  });

  it('takes a real document', async () => {
    answer = serviceDocument({ '/api/auth/me': { get: ok('Me') } }, { Me: { type: 'object' } });
    const document = await new CombinedApiDocument([{ service: SERVICES.auth, url: base }], silent).document();
    expect(Object.keys(document.paths)).toEqual(['/api/auth/me']);
  });
});
