import { Controller, Get, Module, NotFoundException, Param, type DynamicModule } from '@nestjs/common';
import { SERVICES } from '@mate/contracts';
import { createTestRedisNamespace } from '@mate/testing';
import { CoreModule } from '../../core.module';
import { BaseServiceEnv } from '../../config/config';
import { Public } from '../../auth/decorators';
import { call, startService, type RunningService } from '../../../testing/service-app';
import { counter, gauge, histogram, MetricName, queueJobs, addGaugeSource, SOURCE_TIMEOUT_MS } from '../metrics';

/**
 * Starting a service (a database, migrations, Nest, a port) and closing it take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(30_000);

const METRICS_TOKEN = 'metrics-token-for-the-test-0123';

@Controller('api/things')
class ThingsController {
  @Public()
  @Get(':thingId')
  one(@Param('thingId') thingId: string) {
    if (thingId === 'missing') throw new NotFoundException();
    return { thingId };
  }
}

@Module({})
class ThingsModule {
  static forRoot(env: Record<string, string>): DynamicModule {
    return {
      module: ThingsModule,
      imports: [CoreModule.forRoot({ service: SERVICES.profile, envClass: BaseServiceEnv, env })],
      controllers: [ThingsController],
    };
  }
}

/** The sample lines of one metric in Prometheus' text format. */
function samples(text: string, name: string): string[] {
  return text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `));
}

describe('/metrics', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let open: RunningService;
  let guarded: RunningService;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('metrics');
    const env = { REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, LOG_LEVEL: 'silent' };
    open = await startService(ThingsModule.forRoot, env, {}, { migrate: false });
    guarded = await startService(ThingsModule.forRoot, { ...env, METRICS_TOKEN }, {}, { migrate: false });
  });

  afterAll(async () => {
    await Promise.all([open?.close(), guarded?.close()]);
    await ns?.cleanup();
  });

  it('labels request latency by route template and status, never by the raw path', async () => {
    const id = `c0ffee-${Date.now()}`;
    expect((await call(open.url, 'GET', `/api/things/${id}`)).status).toBe(200);
    expect((await call(open.url, 'GET', '/api/things/missing')).status).toBe(404);
    expect((await call(open.url, 'GET', `/api/nothing-here/${id}`)).status).toBe(404);

    const res = await fetch(`${open.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const latency = samples(text, `${MetricName.httpRequestDuration}_count`);
    expect(latency).toEqual(
      expect.arrayContaining([
        expect.stringContaining('service="profile-service",method="GET",route="/api/things/:thingId",status="200"'),
        expect.stringContaining('method="GET",route="/api/things/:thingId",status="404"'),
        expect.stringContaining('method="GET",route="<unmatched>",status="404"'),
      ]),
    );
    expect(text).not.toContain(id);
    // Default process metrics are there too.
    expect(samples(text, 'process_cpu_user_seconds_total')).toHaveLength(1);
    expect(samples(text, 'nodejs_eventloop_lag_seconds')).toHaveLength(1);
  });

  it('asks for the token when METRICS_TOKEN is set', async () => {
    const refused = await call(guarded.url, 'GET', '/metrics');
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ error: 'Metrics token required', code: 'UNAUTHORIZED' });
    const wrong = await call(guarded.url, 'GET', '/metrics', { token: `${METRICS_TOKEN}x` });
    expect(wrong.status).toBe(401);
    const allowed = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain(MetricName.httpRequestDuration);
  });

  it('creates each metric once per process, whoever asks first', () => {
    const a = counter({ name: 'mate_test_once_total', help: 'x', labelNames: ['service'] });
    expect(counter({ name: 'mate_test_once_total', help: 'y', labelNames: ['service'] })).toBe(a);
    const h = histogram({ name: 'mate_test_once_seconds', help: 'x' });
    expect(histogram({ name: 'mate_test_once_seconds', help: 'x' })).toBe(h);
    const g = gauge({ name: 'mate_test_once_gauge', help: 'x' });
    expect(gauge({ name: 'mate_test_once_gauge', help: 'x' })).toBe(g);
    expect(queueJobs()).toBe(queueJobs());
  });

  it('samples queue depth from every source on scrape, leaving out a source that hangs', async () => {
    const stopA = addGaugeSource(queueJobs(), async (g) => g.set({ service: 'a', queue: 'events.a', state: 'waiting' }, 3));
    const stopHung = addGaugeSource(queueJobs(), () => new Promise<void>(() => undefined));
    try {
      const started = Date.now();
      const text = await (await fetch(`${open.url}/metrics`)).text();
      // A hung source would hold the scrape forever; rendering the rest may take a while on a busy machine.
      expect(Date.now() - started).toBeLessThan(SOURCE_TIMEOUT_MS + 4000);
      expect(samples(text, MetricName.queueJobs)).toContain(`${MetricName.queueJobs}{service="a",queue="events.a",state="waiting"} 3`);
    } finally {
      stopA();
      stopHung();
    }
    const after = await (await fetch(`${open.url}/metrics`)).text();
    expect(samples(after, MetricName.queueJobs)).toEqual([]);
  });
});
