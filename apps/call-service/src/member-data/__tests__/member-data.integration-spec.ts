import { randomUUID } from 'node:crypto';
import {
  CallMessages,
  DELETED_MEMBER_NAME,
  INTERNAL_TOKEN_HEADER,
  memberExportPath,
  orderedPairOf,
  type CallRecordDto,
  type CallsExportPart,
} from '@mate/contracts';
import { BaseServiceEnv } from '@mate/server-kit';
import { waitFor } from '@mate/server-kit/testing';
import { ackError, aProfile, startCallTestBed, type CallMember, type CallTestBed } from '../../__tests__/call-test-bed';
import { TranscriptionService } from '../../transcription/transcription.service';
import { columnsHolding, redisKeysHolding } from '@mate/testing';

jest.setTimeout(60_000);

/**
 * Issue 12 in calls: a member's export part, and their erasure on `user.deleted` (README "Member
 * data"): their active call ends, the other member's Call History keeps the calls with the deleted
 * member as 'Unknown User'.
 */
describe('calls: member data export and erasure (real gateway, PostgreSQL, Redis)', () => {
  let bed: CallTestBed;
  const internalToken = () => bed.service.env.INTERNAL_TOKEN ?? new BaseServiceEnv().INTERNAL_TOKEN;
  const exportOf = (userId: string) =>
    bed.service.call<CallsExportPart>('GET', memberExportPath(userId), { headers: { [INTERNAL_TOKEN_HEADER]: internalToken() } });
  const deleted = (userId: string) => bed.deliver('user.deleted', { userId, deletedAt: new Date().toISOString() });
  const history = async (m: CallMember) => (await bed.api<CallRecordDto[]>(m, 'GET', '/api/calls/history')).body;

  beforeAll(async () => {
    bed = await startCallTestBed('call_member_data');
  }, 90_000);

  afterAll(async () => {
    await bed?.close();
  }, 30_000);

  it('exports the member’s calls, erases the member, and keeps the others’ history with Unknown User', async () => {
    const [xena, yuri, zed] = [await bed.member('Xena'), await bed.member('Yuri'), await bed.member('Zed')];
    await bed.match(xena, yuri);
    await bed.match(xena, zed);
    const [x, y, z] = [await bed.connect(xena), await bed.connect(yuri), await bed.connect(zed)];
    // Xena calls Yuri, 30 s talk: completed.
    expect(await x.emit('call:initiate', { to: yuri.userId, callerName: 'X' })).toMatchObject({ ok: true });
    await y.next('call:incoming');
    expect(await y.emit('call:accept', { to: xena.userId })).toEqual({ ok: true });
    bed.clock.advance(30_000);
    expect(await x.emit('call:end', { to: yuri.userId })).toEqual({ ok: true });
    await y.next('call:ended');
    // Zed calls Xena, who turns it down.
    expect(await z.emit('call:initiate', { to: xena.userId, callerName: 'Z' })).toMatchObject({ ok: true });
    await x.next('call:incoming');
    expect(await x.emit('call:reject', { to: zed.userId })).toEqual({ ok: true });
    // Yuri calls Xena and they are talking when she deletes her account.
    bed.clock.advance(1_000);
    expect(await y.emit('call:initiate', { to: xena.userId, callerName: 'Y' })).toMatchObject({ ok: true });
    await x.next('call:incoming');
    expect(await x.emit('call:accept', { to: yuri.userId })).toEqual({ ok: true });
    await y.next('call:accepted');
    await bed.service.app.get(TranscriptionService).admit(xena.userId).catch(() => undefined);

    const exported = await exportOf(xena.userId);
    expect(exported.status).toBe(200);
    expect(exported.body.calls.map((c) => [c.withUserId, c.direction, c.status, c.durationSeconds])).toEqual([
      [yuri.userId, 'incoming', 'in_progress', null],
      [zed.userId, 'incoming', 'rejected', 0],
      [yuri.userId, 'outgoing', 'completed', 30],
    ]);
    expect(exported.body.calls[2]).toEqual(
      expect.objectContaining({ answeredAt: expect.any(String), endedAt: expect.any(String), startedAt: expect.any(String) }),
    );
    expect((await bed.service.call('GET', memberExportPath(xena.userId))).status).toBe(403);
    expect(await redisKeysHolding(bed.service.env.REDIS_URL as string, bed.service.env.KEY_PREFIX as string, xena.userId)).not.toEqual([]);

    bed.clock.advance(12_000);
    expect(await deleted(xena.userId)).toBe('handled');
    // Yuri's call screen closes.
    expect(await y.next('call:ended')).toEqual({ from: xena.userId });

    expect(await columnsHolding(bed.service.dataSource, xena.userId)).toEqual([]);
    // Her sockets end (auth-service ends them with her sessions); the gateway's presence key goes with them.
    x.socket.disconnect();
    await waitFor(async () => ((await redisKeysHolding(bed.service.env.REDIS_URL as string, bed.service.env.KEY_PREFIX as string, xena.userId)).length === 0 ? true : null), {
      timeoutMs: 10_000,
      what: 'no Redis key of the deleted member',
    });

    // Yuri's history: both calls, Xena as Unknown User under a different fresh id in each.
    const yuris = await history(yuri);
    expect(yuris.map((r) => [r.status, r.durationSeconds, r.callerName, r.recipientName])).toEqual([
      ['completed', 12, 'Yuri', DELETED_MEMBER_NAME],
      ['completed', 30, DELETED_MEMBER_NAME, 'Yuri'],
    ]);
    const standIns = [yuris[0].recipientId, yuris[1].callerId];
    expect(new Set(standIns).size).toBe(2);
    expect(standIns).not.toContain(xena.userId);
    expect((await history(zed)).map((r) => [r.status, r.callerName, r.recipientName])).toEqual([
      ['rejected', 'Zed', DELETED_MEMBER_NAME],
    ]);
    // No one can call her, nor the stand-in.
    expect(ackError(await y.emit('call:initiate', { to: xena.userId, callerName: 'Y' })).error).toBe(CallMessages.notMatched);
    expect(ackError(await y.emit('call:initiate', { to: standIns[0], callerName: 'Y' })).error).toBe(CallMessages.notMatched);
    expect((await exportOf(xena.userId)).body).toEqual({ calls: [] });
    expect((await exportOf(yuri.userId)).body.calls.map((c) => c.withUserId)).toEqual(standIns);

    // Again: nothing changes, no error.
    expect(await deleted(xena.userId)).toBe('handled');
    expect(await columnsHolding(bed.service.dataSource, xena.userId)).toEqual([]);
    expect((await history(yuri)).map((r) => r.id)).toEqual(yuris.map((r) => r.id));
    expect([(await history(yuri))[0].recipientId, (await history(yuri))[1].callerId]).toEqual(standIns);

    // Late events naming her are dropped.
    expect(await bed.deliver('profile.updated', aProfile(xena.userId, 'Xena again'), 99)).toBe('erased');
    expect(
      await bed.deliver('match.created', { matchId: randomUUID(), userIds: orderedPairOf(xena.userId, zed.userId), createdAt: new Date().toISOString() }),
    ).toBe('erased');
    expect(await columnsHolding(bed.service.dataSource, xena.userId)).toEqual([]);

    // Yuri deletes his account too: the calls nobody keeps now go, with their stand-ins.
    expect(await deleted(yuri.userId)).toBe('handled');
    for (const id of [yuri.userId, ...standIns]) expect(await columnsHolding(bed.service.dataSource, id)).toEqual([]);
    expect((await history(zed)).map((r) => r.recipientName)).toEqual([DELETED_MEMBER_NAME]);
  });
});
