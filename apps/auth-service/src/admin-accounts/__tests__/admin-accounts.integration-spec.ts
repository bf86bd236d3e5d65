import { randomUUID } from 'node:crypto';
import {
  ADMIN_ACTIVE_WINDOW_MS,
  INTERNAL_ADMIN_PATHS,
  INTERNAL_TOKEN_HEADER,
  type AdminAccountPart,
  type AdminAccountStatsPart,
  type AdminAccountSummaryPart,
} from '@mate/contracts';
import { BaseServiceEnv } from '@mate/server-kit';
import { DataSource } from 'typeorm';
import { startAuthTestBed, type AuthTestBed } from '../../__tests__/auth-test-bed';

jest.setTimeout(60_000);

/**
 * auth-service's internal admin routes (issue 13): one account, accounts by id, search by name or
 * email, and the account statistics, for admin-service only (internal credential). Real
 * PostgreSQL and Redis.
 */
describe('auth: accounts for admins (internal routes)', () => {
  let bed: AuthTestBed;
  let ds: DataSource;
  let seq = 0;
  const email = (label: string) => `${label}-${++seq}-${randomUUID().slice(0, 6)}@admin.test`;
  const credential = { [INTERNAL_TOKEN_HEADER]: new BaseServiceEnv().INTERNAL_TOKEN };
  const internal = <T>(path: string, headers: Record<string, string> = credential) =>
    bed.call<T>('GET', path, { headers });

  beforeAll(async () => {
    bed = await startAuthTestBed('auth_admin_accounts');
    ds = bed.svc.dataSource;
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('refuses every route without the internal credential, a member token included', async () => {
    const member = await bed.registerVerified(email('member'));
    for (const path of [
      INTERNAL_ADMIN_PATHS.account(member.user.id),
      `${INTERNAL_ADMIN_PATHS.accounts}?ids=${member.user.id}`,
      `${INTERNAL_ADMIN_PATHS.accountSearch}?q=member`,
      INTERNAL_ADMIN_PATHS.accountStats,
    ]) {
      expect((await internal(path, {})).status).toBe(403);
      expect((await bed.call('GET', path, { token: member.token })).status).toBe(403);
    }
  });

  it('answers one account with the admin fields, and 404 User not found', async () => {
    const address = email('ada');
    const member = await bed.registerVerified(address, { name: 'Ada Lovelace' });
    const id = member.user.id;
    const res = await internal<AdminAccountPart>(INTERNAL_ADMIN_PATHS.account(id.toUpperCase()));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      email: address.toLowerCase(),
      name: 'Ada Lovelace',
      role: 'member',
      createdAt: expect.any(String),
      lastActive: expect.any(String),
      isVerified: true,
      isActive: true,
      isSuspended: false,
      suspendedAt: null,
      suspensionReason: null,
    });

    const suspendedAt = new Date();
    await ds.query('UPDATE users SET suspended_at = $2, suspension_reason = $3 WHERE id = $1', [
      id,
      suspendedAt,
      'Spam',
    ]);
    expect((await internal<AdminAccountPart>(INTERNAL_ADMIN_PATHS.account(id))).body).toMatchObject({
      isActive: false,
      isSuspended: true,
      suspendedAt: suspendedAt.toISOString(),
      suspensionReason: 'Spam',
    });

    expect(await internal(INTERNAL_ADMIN_PATHS.account(randomUUID()))).toMatchObject({
      status: 404,
      body: { error: 'User not found' },
    });
    expect((await internal(INTERNAL_ADMIN_PATHS.account('not-a-uuid'))).status).toBe(400);

    // Never seen (no session, nothing recorded): lastActive null.
    await ds.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1', [id]);
    await ds.query('UPDATE users SET last_active_at = NULL WHERE id = $1', [id]);
    expect((await internal<AdminAccountPart>(INTERNAL_ADMIN_PATHS.account(id))).body.lastActive).toBeNull();
  });

  it('answers summaries of the ids that exist, in the order asked, and validates the list', async () => {
    const [a, b] = [await bed.registerVerified(email('one')), await bed.register(email('two'))];
    const missing = randomUUID();
    const res = await internal<AdminAccountSummaryPart[]>(
      `${INTERNAL_ADMIN_PATHS.accounts}?ids=${b.user.id},${missing},${a.user.id.toUpperCase()},${b.user.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.map((s) => s.id)).toEqual([b.user.id, a.user.id]);
    expect(res.body[0]).toEqual({
      id: b.user.id,
      name: null,
      email: b.user.email,
      role: 'member',
      isSuspended: false,
      isVerified: false,
      createdAt: expect.any(String),
    });
    expect(res.body[1].isVerified).toBe(true);

    const tooMany = Array.from({ length: 201 }, () => randomUUID()).join(',');
    for (const bad of [
      '',
      'ids=',
      'ids=nope',
      `ids=${a.user.id},nope`,
      `ids=${tooMany}`,
      `ids=${a.user.id}&extra=1`,
    ]) {
      const answer = await internal<{ error: string }>(`${INTERNAL_ADMIN_PATHS.accounts}?${bad}`);
      expect([bad.slice(0, 30), answer.status]).toEqual([bad.slice(0, 30), 400]);
      expect(typeof answer.body.error).toBe('string');
    }
    const twoHundred = Array.from({ length: 200 }, () => randomUUID()).join(',');
    expect(await internal(`${INTERNAL_ADMIN_PATHS.accounts}?ids=${twoHundred}`)).toMatchObject({
      status: 200,
      body: [],
    });
  });

  it('searches name or email, case-insensitively, with LIKE wildcards matching only themselves', async () => {
    const tag = randomUUID().slice(0, 8);
    const zoe = await bed.registerVerified(`zoe.${tag}@search.test`, { name: `Zoë ${tag}` });
    const pct = await bed.registerVerified(`pct_${tag}%@search.test`.replace('%', ''), {
      name: `100% ${tag}`,
    });
    const plain = await bed.registerVerified(`plainx${tag}@search.test`);
    const search = (q: string, limit?: number) =>
      internal<AdminAccountSummaryPart[]>(
        `${INTERNAL_ADMIN_PATHS.accountSearch}?q=${encodeURIComponent(q)}${limit === undefined ? '' : `&limit=${limit}`}`,
      );

    expect((await search(`ZOE.${tag.toUpperCase()}`)).body.map((s) => s.id)).toEqual([zoe.user.id]);
    expect((await search(`zoë ${tag}`)).body.map((s) => s.id)).toEqual([zoe.user.id]);
    // `%` and `_` are literal: `_` would otherwise match any character (plainx), `%` anything.
    expect((await search(`pct_${tag}`)).body.map((s) => s.id)).toEqual([pct.user.id]);
    expect((await search(`% ${tag}`)).body.map((s) => s.id)).toEqual([pct.user.id]);
    expect((await search(`%${tag}`)).body).toEqual([]);
    expect((await search(`${tag}@search`)).body.map((s) => s.id).sort()).toEqual(
      [zoe.user.id, pct.user.id, plain.user.id].sort(),
    );
    expect((await search(tag, 1)).body).toHaveLength(1);
    // An exact email comes first.
    expect((await search(`plainx${tag}@search.test`)).body[0].id).toBe(plain.user.id);

    for (const bad of [
      'q=',
      'q=%20%20',
      `q=${'x'.repeat(101)}`,
      'q=a&limit=0',
      'q=a&limit=101',
      'q=a&limit=x',
      'limit=5',
      'q=a&other=1',
    ]) {
      expect([
        bad.slice(0, 20),
        (await internal(`${INTERNAL_ADMIN_PATHS.accountSearch}?${bad}`)).status,
      ]).toEqual([bad.slice(0, 20), 400]);
    }
    expect((await search('x'.repeat(100))).status).toBe(200);
  });

  it('counts every account, the ones seen within the window, and the suspended ones', async () => {
    const before = (await internal<AdminAccountStatsPart>(INTERNAL_ADMIN_PATHS.accountStats)).body;
    const [seen, old, suspended] = [
      await bed.registerVerified(email('seen')),
      await bed.registerVerified(email('old')),
      await bed.registerVerified(email('susp')),
    ];
    const now = bed.clock.now().getTime();
    await ds.query('UPDATE users SET last_active_at = $2 WHERE id = $1', [
      seen.user.id,
      new Date(now - ADMIN_ACTIVE_WINDOW_MS + 60_000),
    ]);
    await ds.query('UPDATE users SET last_active_at = $2 WHERE id = $1', [
      old.user.id,
      new Date(now - ADMIN_ACTIVE_WINDOW_MS - 60_000),
    ]);
    await ds.query(
      `UPDATE users SET suspended_at = now(), suspension_reason = 'x', last_active_at = NULL WHERE id = $1`,
      [suspended.user.id],
    );
    const res = await internal<AdminAccountStatsPart>(INTERNAL_ADMIN_PATHS.accountStats);
    expect(res.status).toBe(200);
    const [counted] = await ds.query(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE last_active_at >= $1))::int AS active,
              (count(*) FILTER (WHERE suspended_at IS NOT NULL))::int AS suspended FROM users`,
      [new Date(now - ADMIN_ACTIVE_WINDOW_MS)],
    );
    expect(res.body).toEqual(counted);
    expect(res.body.total).toBe(before.total + 3);
    expect(res.body.suspended).toBe(before.suspended + 1);
  });
});
