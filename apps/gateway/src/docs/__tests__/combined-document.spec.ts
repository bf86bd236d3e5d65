import type { OpenAPIObject } from '@nestjs/swagger';
import { SERVICES } from '@mate/contracts';
import { combineDocuments } from '../combined-document';

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
