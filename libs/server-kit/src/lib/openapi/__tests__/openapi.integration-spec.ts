import { Body, Controller, Get, HttpCode, Module, Param, Post, type DynamicModule } from '@nestjs/common';
import { ApiCreatedResponse, ApiExcludeEndpoint, ApiOkResponse, ApiProperty, type OpenAPIObject } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { SERVICES } from '@mate/contracts';
import { createTestRedisNamespace } from '@mate/testing';
import { CoreModule } from '../../core.module';
import { BaseServiceEnv } from '../../config/config';
import { AllowUnverified, Public } from '../../auth/decorators';
import { call, startService, type RunningService } from '../../../testing/service-app';
import { ApiErrors, MessageResponseDto } from '../api-docs';
import { BEARER_AUTH, createServiceDocument, documentationGaps, listControllerRoutes, OPENAPI_PATH } from '../openapi';

/**
 * Starting a service (a database, migrations, Nest, a port) and closing it take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(30_000);

class NoteDto {
  @ApiProperty({ example: 'hello' })
  @IsString()
  text!: string;
}

@Controller(['api/notes', 'api/notebook'])
class NotesController {
  @Public()
  @Post()
  @ApiCreatedResponse({ type: MessageResponseDto })
  @ApiErrors(400)
  create(@Body() body: NoteDto) {
    return { message: body.text };
  }

  @Get(':noteId')
  @ApiOkResponse({ type: NoteDto })
  @ApiErrors(404)
  one(@Param('noteId') noteId: string) {
    return { text: noteId };
  }

  // Documented, but only with an error: not enough.
  @AllowUnverified()
  @Post(':noteId/archive')
  @HttpCode(200)
  @ApiErrors(404)
  archive() {
    return {};
  }

  // Forgotten entirely is impossible to tell apart from this without the explorer: excluded on purpose.
  @Get(':noteId/internal')
  @ApiExcludeEndpoint()
  internal() {
    return {};
  }
}

@Module({})
class NotesModule {
  static forRoot(env: Record<string, string>): DynamicModule {
    return {
      module: NotesModule,
      imports: [CoreModule.forRoot({ service: SERVICES.profile, envClass: BaseServiceEnv, env })],
      controllers: [NotesController],
    };
  }
}

describe('service OpenAPI documents', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let service: RunningService;
  let document: OpenAPIObject;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('openapi');
    service = await startService(NotesModule.forRoot, { REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, LOG_LEVEL: 'silent' }, {}, { migrate: false });
    document = createServiceDocument(service.app, SERVICES.profile);
  });

  afterAll(async () => {
    await service?.close();
    await ns?.cleanup();
  });

  it('lists every controller route under each of its paths, with its public and excluded flags', () => {
    const routes = listControllerRoutes(service.app).map(
      (r) => `${r.method} ${r.path} public=${r.isPublic} unverified=${r.allowsUnverified} excluded=${r.excluded}`,
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'post /api/notes public=true unverified=true excluded=false',
        'post /api/notebook public=true unverified=true excluded=false',
        'get /api/notes/:noteId public=false unverified=false excluded=false',
        'post /api/notes/:noteId/archive public=false unverified=true excluded=false',
        'get /api/notebook/:noteId/internal public=false unverified=false excluded=true',
        'get /health/ready public=true unverified=true excluded=true',
      ]),
    );
  });

  it('takes security from @Public: open routes have none, the others the bearer scheme, a 401 and a 403 unless @AllowUnverified', () => {
    expect(document.components?.securitySchemes?.[BEARER_AUTH]).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.paths['/api/notes']?.post?.security).toEqual([]);
    const one = document.paths['/api/notes/{noteId}']?.get;
    expect(one?.security).toEqual([{ [BEARER_AUTH]: [] }]);
    expect(Object.keys(one?.responses ?? {}).sort()).toEqual(['200', '401', '403', '404']);
    expect(one?.responses['403']).toMatchObject({ description: expect.stringContaining('EMAIL_NOT_VERIFIED') });
    expect(Object.keys(document.paths['/api/notes/{noteId}/archive']?.post?.responses ?? {}).sort()).toEqual(['401', '404']);
    expect(one?.responses['404']).toMatchObject({ content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } } });
    expect(document.components?.schemas?.['ErrorBodyDto']).toMatchObject({ required: ['error'] });
    expect(document.paths['/health/ready']).toBeUndefined();
  });

  it('names every route that is served without a documented 2xx answer, and nothing else', () => {
    expect(documentationGaps(service.app, document).sort()).toEqual([
      'POST /api/notebook/:noteId/archive documents no 2xx response',
      'POST /api/notes/:noteId/archive documents no 2xx response',
    ]);
    const withoutOne = structuredClone(document);
    delete withoutOne.paths['/api/notes/{noteId}'];
    expect(documentationGaps(service.app, withoutOne)).toContain('GET /api/notes/:noteId is served but not documented');
    const withExtra = structuredClone(document);
    withExtra.paths['/api/ghost'] = { get: { responses: { '200': { description: 'ok' } } } };
    expect(documentationGaps(service.app, withExtra)).toContain('GET /api/ghost is documented but not served');
  });

  it(`serves the document at ${OPENAPI_PATH}, outside /api`, async () => {
    const res = await call<OpenAPIObject>(service.url, 'GET', OPENAPI_PATH);
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(expect.arrayContaining(['/api/notes', '/api/notebook/{noteId}']));
  });
});
