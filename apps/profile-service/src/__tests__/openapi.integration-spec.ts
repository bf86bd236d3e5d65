import type { OpenAPIObject } from '@nestjs/swagger';
import { rm } from 'node:fs/promises';
import { SERVICES, serviceDefinition } from '@mate/contracts';
import { documentationGaps, OPENAPI_PATH, publicOperations } from '@mate/server-kit';
import { call } from '@mate/server-kit/testing';
import { startProfileTestBed, type ProfileTestBed } from './test-app';

describe('profile-service OpenAPI document', () => {
  let bed: ProfileTestBed;
  let document: OpenAPIObject;

  beforeAll(async () => {
    bed = await startProfileTestBed('profile_openapi');
    const res = await call<OpenAPIObject>(bed.url, 'GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    document = res.body;
  });

  afterAll(async () => {
    await bed?.close();
    if (bed) await rm(bed.photoDir, { recursive: true, force: true });
  });

  it('documents every route the service serves, each with a 2xx answer', () => {
    expect(documentationGaps(bed.app, document)).toEqual([]);
  });

  it('leaves only the photo files open, as the gateway does', () => {
    expect(serviceDefinition(SERVICES.profile)?.publicRoutes).toEqual([]);
    expect(publicOperations(document)).toEqual(['GET /api/photos/files/{photoId}/{file}']);
  });

  it('documents both photo paths, the multipart upload and the answers from the DTOs', () => {
    expect(document.paths['/api/photos/upload']?.post?.requestBody).toMatchObject({ content: { 'multipart/form-data': {} } });
    expect(document.paths['/api/profile/me/photos/upload']?.post?.responses['201']).toBeDefined();
    expect(document.paths['/api/profile/me']?.get?.responses['200']).toMatchObject({
      content: { 'application/json': { schema: { $ref: '#/components/schemas/OwnProfileResponseDto' } } },
    });
    expect(document.components?.schemas?.['UpdateFilterPreferencesDto']).toMatchObject({ required: ['minAge', 'maxAge', 'maxDistance'] });
  });

  it('documents the place search of the location field (issue 25): q, limit, a list of places, 400', () => {
    const places = document.paths['/api/profile/places']?.get;
    expect(places?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'q', in: 'query', required: true }),
        expect.objectContaining({ name: 'limit', in: 'query', required: false }),
      ]),
    );
    expect(places?.responses['200']).toMatchObject({
      content: {
        'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/PlaceSuggestionResponseDto' } } },
      },
    });
    expect(places?.responses['400']).toBeDefined();
  });
});
