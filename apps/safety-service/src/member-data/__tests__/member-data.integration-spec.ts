import { randomUUID } from 'node:crypto';
import {
  INTERNAL_TOKEN_HEADER,
  memberExportPath,
  SafetyMessages,
  SERVICES,
  type BlockedUserDto,
  type ReportResultDto,
  type SafetyExportPart,
} from '@mate/contracts';
import { EventConsumer } from '@mate/server-kit';
import { eventEnvelope } from '@mate/server-kit/testing';
import { aProfile, startSafetyTestBed, TEST_INTERNAL_TOKEN, type SafetyTestBed } from '../../__tests__/safety-test-bed';
import { columnsHolding, redisKeysHolding } from '@mate/testing';

jest.setTimeout(60_000);

interface StoredReport {
  id: string;
  reporter_id: string;
  reported_id: string;
  reason: string;
  details: string | null;
  status: string;
  reported_profile: Record<string, unknown> | null;
  messages: { content: string; senderId: string; recipientId: string }[] | null;
  messages_status: string;
}

/**
 * Issue 12 in safety: a member's export part, and their erasure on `user.deleted` (README "Member
 * data"): blocks by and of them go, reports stay for the moderators with them anonymised.
 */
describe('safety: member data export and erasure (real PostgreSQL and Redis; chat played by a real HTTP stub)', () => {
  let t: SafetyTestBed;
  const exportOf = (userId: string) =>
    t.bed.call<SafetyExportPart>('GET', memberExportPath(userId), { headers: { [INTERNAL_TOKEN_HEADER]: TEST_INTERNAL_TOKEN } });
  const deleted = (userId: string) =>
    t.bed.app.get(EventConsumer).apply(eventEnvelope(SERVICES.auth, 'user.deleted', { userId, deletedAt: new Date().toISOString() }));
  const report = async (id: string): Promise<StoredReport> => (await t.bed.dataSource.query('SELECT * FROM report WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    t = await startSafetyTestBed('safety_member_data', { env: { SAFETY_CHAT_TIMEOUT_MS: '300' } });
  }, 30_000);

  afterAll(async () => {
    t.chat.hang = false;
    await t?.close();
  }, 30_000);

  it('exports what the member made, erases them, keeps the reports for moderators anonymised', async () => {
    const xena = await t.member({ name: 'Xena', photo: 'https://cdn.example/xena.jpg' });
    const [yuri, zed, wren, vic, uma] = [
      await t.member({ name: 'Yuri' }),
      await t.member({ name: 'Zed' }),
      await t.member({ name: 'Wren' }),
      await t.member({ name: 'Vic' }),
      await t.member({ name: 'Uma' }),
    ];
    // Blocks by her and of her.
    expect((await t.api(xena, 'POST', `/api/safety/block/${yuri.userId}`, {})).status).toBe(200);
    expect((await t.api(zed, 'POST', `/api/safety/block/${xena.userId}`, {})).status).toBe(200);
    // She unmatches Wren, then reports her.
    await t.match(xena, wren);
    expect((await t.api(xena, 'POST', `/api/safety/unmatch/${wren.userId}`)).status).toBe(200);
    t.chat.say(xena, wren, 'X to W', 10);
    t.chat.say(wren, xena, 'W to X', 9);
    const made = await t.api<ReportResultDto>(xena, 'POST', `/api/safety/report/${wren.userId}`, { reason: 'spam', details: 'She sells things' });
    expect(made.status).toBe(201);
    // Vic reports her (messages captured); Uma reports her while chat hangs (snapshot pending).
    t.chat.say(vic, xena, 'V to X', 8);
    t.chat.say(xena, vic, 'X to V', 7);
    const about = await t.api<ReportResultDto>(vic, 'POST', `/api/safety/report/${xena.userId}`, { reason: 'harassment', details: 'Rude' });
    expect(about.status).toBe(201);
    t.chat.hang = true;
    const pending = await t.api<ReportResultDto>(uma, 'POST', `/api/safety/report/${xena.userId}`, {});
    t.chat.hang = false;
    expect(pending.status).toBe(201);
    expect((await report(pending.body.id)).messages_status).toBe('pending');

    const exported = await exportOf(xena.userId);
    expect(exported.status).toBe(200);
    expect(exported.body).toEqual({
      blocks: [{ userId: yuri.userId, createdAt: expect.any(String) }],
      reports: [
        { id: made.body.id, reportedUserId: wren.userId, reason: 'spam', details: 'She sells things', status: 'pending', createdAt: made.body.createdAt },
      ],
      unmatches: [{ userId: wren.userId, endedAt: expect.any(String) }],
    });
    expect((await t.bed.call('GET', memberExportPath(xena.userId))).status).toBe(403);
    expect(await redisKeysHolding(t.bed.env.REDIS_URL as string, t.bed.env.KEY_PREFIX as string, xena.userId)).not.toEqual([]);

    expect(await deleted(xena.userId)).toBe('handled');

    expect(await columnsHolding(t.bed.dataSource, xena.userId)).toEqual([]);
    expect(await redisKeysHolding(t.bed.env.REDIS_URL as string, t.bed.env.KEY_PREFIX as string, xena.userId)).toEqual([]);

    // Her report of Wren: the reporter anonymised, Wren's profile and message stay, hers go.
    const hers = await report(made.body.id);
    expect(hers).toMatchObject({ reason: 'spam', details: 'She sells things', status: 'pending', reported_id: wren.userId });
    expect(hers.reported_profile).toMatchObject({ userId: wren.userId, name: 'Wren' });
    expect(hers.messages).toEqual([expect.objectContaining({ content: 'W to X', senderId: wren.userId, recipientId: hers.reporter_id })]);
    // Vic's report of her: the reported member anonymised, her profile and messages gone, Vic's words and messages kept.
    const vics = await report(about.body.id);
    expect(vics).toMatchObject({ reporter_id: vic.userId, reason: 'harassment', details: 'Rude', status: 'pending', reported_profile: null });
    expect(vics.messages).toEqual([expect.objectContaining({ content: 'V to X', senderId: vic.userId, recipientId: vics.reported_id })]);
    // Uma's pending snapshot is closed empty: nothing of her is left to ask chat for.
    const umas = await report(pending.body.id);
    expect(umas).toMatchObject({ reporter_id: uma.userId, messages_status: 'complete', messages: [], reported_profile: null });
    const standIns = [hers.reporter_id, vics.reported_id, umas.reported_id];
    expect(new Set([...standIns, xena.userId]).size).toBe(4);

    // Blocks by and of her are gone; she is an unknown member to block or report now.
    expect((await t.api<BlockedUserDto[]>(zed, 'GET', '/api/safety/blocked')).body).toEqual([]);
    for (const [method, path] of [
      ['POST', `/api/safety/block/${xena.userId}`],
      ['POST', `/api/safety/report/${xena.userId}`],
    ]) {
      const res = await t.api(yuri, method, path, {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual(expect.objectContaining({ error: SafetyMessages.memberNotFound }));
    }
    expect((await exportOf(xena.userId)).body).toEqual({ blocks: [], reports: [], unmatches: [] });

    // Again: nothing changes, no error.
    expect(await deleted(xena.userId)).toBe('handled');
    expect(await columnsHolding(t.bed.dataSource, xena.userId)).toEqual([]);
    expect([(await report(made.body.id)).reporter_id, (await report(about.body.id)).reported_id]).toEqual(standIns.slice(0, 2));

    // Late events naming her are dropped.
    expect(await t.deliver('profile.updated', aProfile(xena.userId, 'Xena again'), 99)).toBe('erased');
    expect(
      await t.deliver('match.created', {
        matchId: randomUUID(),
        userIds: [xena.userId, zed.userId].sort() as [string, string],
        createdAt: new Date().toISOString(),
      }),
    ).toBe('erased');
    expect(await columnsHolding(t.bed.dataSource, xena.userId)).toEqual([]);
  });

  it('refuses a block or report whose member was erased after the lookup (no row outlives the erasure)', async () => {
    const [gone, bea] = [await t.member({ name: 'Gone' }), await t.member({ name: 'Bea' })];
    expect(await deleted(gone.userId)).toBe('handled');
    // A lookup that still found her (a replica's read just before the erasure): her row, put back by hand.
    await t.bed.dataSource.query(`INSERT INTO safety_member (user_id, name, profile, version) VALUES ($1, 'Gone', '{}', 1)`, [gone.userId]);
    for (const path of [`/api/safety/block/${gone.userId}`, `/api/safety/report/${gone.userId}`]) {
      const res = await t.api(bea, 'POST', path, {});
      expect(res.status).toBe(404);
      expect(res.body).toEqual(expect.objectContaining({ error: SafetyMessages.memberNotFound }));
    }
    expect((await t.api(bea, 'DELETE', `/api/safety/block/${gone.userId}`)).body).toEqual({ unblocked: false });
    await t.bed.dataSource.query('DELETE FROM safety_member WHERE user_id = $1', [gone.userId]);
    expect(await columnsHolding(t.bed.dataSource, gone.userId)).toEqual([]);
  });
});
