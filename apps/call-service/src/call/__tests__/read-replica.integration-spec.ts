import type { CallRecordDto } from '@mate/contracts';
import { withReadReplica } from '@mate/server-kit/testing';
import { startPostgresPrimaryAndReplica, type PostgresPrimaryAndReplica } from '@mate/testing';
import { startCallTestBed, type CallMember, type CallTestBed } from '../../__tests__/call-test-bed';

jest.setTimeout(60_000);

/**
 * Call History read from a streaming replica (DATABASE_READ_URL), both members of a call seeing it
 * at once (docs/adr/0033). The replica lags when its replay is paused.
 */
describe('call history from a read replica, with read-your-writes', () => {
  let cluster: PostgresPrimaryAndReplica;
  let bed: CallTestBed;

  beforeAll(async () => {
    cluster = await startPostgresPrimaryAndReplica();
    bed = await startCallTestBed('call_replica', { database: withReadReplica(cluster) });
  }, 60_000);

  afterAll(async () => {
    await cluster?.resumeReplay().catch(() => undefined);
    await bed?.close();
    await cluster?.stop();
  }, 30_000);

  const history = async (m: CallMember) => {
    const res = await bed.api<CallRecordDto[]>(m, 'GET', '/api/calls/history');
    expect(res.status).toBe(200);
    return res.body;
  };

  /** A call rung, answered and ended by the caller. */
  async function call(caller: CallMember, callee: CallMember) {
    const [a, b] = [await bed.connect(caller), await bed.connect(callee)];
    expect(await a.emit('call:initiate', { to: callee.userId, callerName: 'x' })).toMatchObject({ ok: true });
    await b.next('call:incoming');
    expect(await b.emit('call:accept', { to: caller.userId })).toEqual({ ok: true });
    await a.next('call:accepted');
    bed.clock.advance(5_000);
    expect(await a.emit('call:end', { to: callee.userId })).toEqual({ ok: true });
    a.socket.disconnect();
    b.socket.disconnect();
  }

  it('with replay paused, a call is in both members’ history at once; the history of a member who did nothing comes from the replica', async () => {
    const [ann, bob] = await bed.pair('Ann', 'Bob');
    const [cat, dan] = await bed.pair('Cat', 'Dan');
    await call(cat, dan);
    await cluster.caughtUp();
    await cluster.pauseReplay();

    await call(ann, bob);
    for (const member of [ann, bob]) {
      expect((await history(member)).map((r) => [r.callerId, r.status, r.durationSeconds])).toEqual([
        [ann.userId, 'completed', 5],
      ]);
    }
    // A record the replica has not replayed (written here as a seeder would, no member's write).
    await bed.service.dataSource.query(
      `INSERT INTO call_record (id, caller_id, recipient_id, status, started_at, ended_at, duration_seconds)
       VALUES (gen_random_uuid(), $1, $2, 'missed', now() + interval '1 day', now() + interval '1 day', 0)`,
      [dan.userId, cat.userId],
    );
    expect((await history(cat)).map((r) => r.status)).toEqual(['completed']);
    await cluster.resumeReplay();
    await cluster.caughtUp();
    expect((await history(cat)).map((r) => r.status)).toEqual(['missed', 'completed']);
  });

  it('reads the primary when the replica is down, with no error', async () => {
    const [eve, fay] = await bed.pair('Eve', 'Fay');
    await cluster.kill('replica');
    await call(eve, fay);
    expect((await history(fay)).map((r) => [r.callerId, r.status])).toEqual([[eve.userId, 'completed']]);
  });
});
