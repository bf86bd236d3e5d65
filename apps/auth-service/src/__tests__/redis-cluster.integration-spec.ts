import { createRedis, scanKeys, type RedisClient } from '@mate/server-kit';
import { startServiceTestBed, waitFor, type ServiceTestBed } from '@mate/server-kit/testing';
import { startRedisCluster, type OwnRedisCluster } from '@mate/testing';
import { AppModule } from '../app.module';

jest.setTimeout(60_000);

const PASSWORD = 'correct horse battery';

/**
 * auth-service on a real Redis Cluster of the test's own (ADR 0032): a sign-up (known addresses'
 * MULTI, rate limits, the session and its activity note), the member activity consumer's
 * XREADGROUP on the cluster, the member's sessions listed, and the account's erasure deleting the
 * member's keys whatever their slots.
 */
describe('auth-service on a Redis Cluster', () => {
  let cluster: OwnRedisCluster;
  let bed: ServiceTestBed;
  let redis: RedisClient;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    bed = await startServiceTestBed((e) => AppModule.forRoot(e), {
      label: 'auth_cluster',
      env: {
        REDIS_CLUSTER_NODES: cluster.seeds,
        WEB_URL: 'http://app.mate.test',
        IP_RATE_LIMIT_MULTIPLIER: '10',
        MEMBER_ACTIVITY_BLOCK_MS: '50',
      },
    });
    redis = createRedis({ REDIS_URL: bed.env.REDIS_URL as string, REDIS_CLUSTER_NODES: cluster.seeds });
  }, 60_000);

  afterAll(async () => {
    redis?.disconnect();
    await bed?.close();
    await cluster?.stop();
  });

  it("signs a member up, records their day of activity, lists their session and erases their keys", async () => {
    const email = `cluster-${Date.now()}@mate.test`;
    const registered = await bed.call<{ token: string; user: { id: string } }>('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
    expect(registered.status).toBe(201);
    const { token, user } = registered.body;

    // The sign-up's note went from the session (its member's slot) to the activity stream, and the consumer recorded the day.
    await waitFor(
      async () => (await bed.dataSource.query('SELECT 1 FROM member_activity_day WHERE user_id = $1', [user.id])).length === 1,
      { what: 'the day of activity recorded' },
    );
    const signedIn = await bed.call('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(signedIn.status).toBe(200);
    const sessions = await bed.call<unknown[]>('GET', '/api/sessions/my', { token });
    expect(sessions.status).toBe(200);
    expect(sessions.body).toHaveLength(2);
    const prefix = bed.env.KEY_PREFIX as string;
    expect(await scanKeys(redis, `${prefix}:auth:known-addresses:${user.id}`)).toHaveLength(1);

    const deleted = await bed.call('POST', '/api/gdpr/delete-account', { token, body: { confirmEmail: email } });
    expect(deleted.status).toBe(200);
    // Nothing under the prefix names the member any more, on any master.
    const left = (await scanKeys(redis, `${prefix}*`)).filter((key) => key.toLowerCase().includes(user.id.toLowerCase()));
    expect(left).toEqual([]);
    expect((await bed.call('GET', '/api/sessions/my', { token })).status).toBe(401);
  });
});
