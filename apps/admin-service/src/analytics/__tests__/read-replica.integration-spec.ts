import { randomUUID } from 'node:crypto';
import { ROLE_ADMIN } from '@mate/contracts';
import { startServiceTestBed, withReadReplica, type ServiceTestBed } from '@mate/server-kit/testing';
import { startPostgresPrimaryAndReplica, type PostgresPrimaryAndReplica } from '@mate/testing';
import { AppModule } from '../../app.module';

jest.setTimeout(60_000);

/** Analytics read from a streaming replica as it is (no member's own write to wait for; docs/adr/0033). */
describe('admin analytics from a read replica', () => {
  let cluster: PostgresPrimaryAndReplica;
  let bed: ServiceTestBed;
  let adminToken: string;

  beforeAll(async () => {
    cluster = await startPostgresPrimaryAndReplica();
    bed = await startServiceTestBed((env) => AppModule.forRoot(env), { label: 'admin_replica', database: withReadReplica(cluster) });
    adminToken = (await bed.signIn(randomUUID(), ROLE_ADMIN)).token;
  }, 60_000);

  afterAll(async () => {
    await cluster?.resumeReplay().catch(() => undefined);
    await bed?.close();
    await cluster?.stop();
  });

  /** A message.sent fact in admin's store, as its consumer records one. */
  const recordMessage = () =>
    bed.dataSource.query(
      `INSERT INTO analytics_event (id, type, user_id, other_user_id, day, occurred_at)
       VALUES ($1, 'message.sent', $2, $3, current_date, now())`,
      [randomUUID(), randomUUID(), randomUUID()],
    );
  const totalMessages = async () => {
    const res = await bed.call<{ totalMessages: number }>('GET', '/api/admin/analytics/overview', { token: adminToken });
    expect(res.status).toBe(200);
    return res.body.totalMessages;
  };

  it('counts what the replica has replayed; the primary answers when the replica is down', async () => {
    await recordMessage();
    await cluster.caughtUp();
    expect(await totalMessages()).toBe(1);
    await cluster.pauseReplay();
    await recordMessage();
    expect(await totalMessages()).toBe(1);
    await cluster.resumeReplay();
    await cluster.caughtUp();
    expect(await totalMessages()).toBe(2);

    await cluster.kill('replica');
    await recordMessage();
    expect(await totalMessages()).toBe(3);
  });
});
