import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS } from '@mate/server-kit';
import { createTestDatabase, type TestDatabase } from '@mate/testing';
import { PASSWORD, startAuthTestBed, tokenOf, type AuthTestBed } from '../../__tests__/auth-test-bed';
import { DemoteUnverifiedAdmins1795388000000 } from '../1795388000000-DemoteUnverifiedAdmins';
import { AUTH_MIGRATIONS } from '..';

/**
 * Issue 7 item 10, accounts made admin by ADMIN_EMAILS at sign-up before the fix: the migration
 * makes every unverified admin a member again, and their sessions follow.
 */
describe('auth-service migration: DemoteUnverifiedAdmins', () => {
  describe('on a database set up before it', () => {
    let db: TestDatabase;
    const dataSource = (migrations: typeof AUTH_MIGRATIONS) =>
      new DataSource({ type: 'postgres', url: db.url, migrations, migrationsTableName: 'migrations', logging: false });

    beforeAll(async () => {
      db = await createTestDatabase('auth_demote');
    });
    afterAll(async () => {
      await db.drop();
    });

    it('demotes the unverified admins only, and runs once', async () => {
      const before = dataSource(AUTH_MIGRATIONS.filter((m) => m !== DemoteUnverifiedAdmins1795388000000));
      await before.initialize();
      await before.runMigrations({ transaction: 'each' });
      // As the old code left them: an ADMIN_EMAILS address registered by whoever came first, a
      // proven admin, and members verified or not.
      await before.query(
        `INSERT INTO users (email, password_hash, role, email_verified_at) VALUES
           ('squatted-admin@mate.test', 'x', 'admin', NULL),
           ('proven-admin@mate.test', 'x', 'admin', now() - interval '1 day'),
           ('new-member@mate.test', 'x', 'member', NULL),
           ('old-member@mate.test', 'x', 'member', now())`,
      );
      await before.destroy();

      const after = dataSource(AUTH_MIGRATIONS);
      await after.initialize();
      try {
        expect((await after.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual(['DemoteUnverifiedAdmins1795388000000']);
        const roles = await after.query<{ email: string; role: string }[]>('SELECT email, role FROM users ORDER BY email');
        expect(Object.fromEntries(roles.map((r) => [r.email, r.role]))).toEqual({
          'new-member@mate.test': 'member',
          'old-member@mate.test': 'member',
          'proven-admin@mate.test': 'admin',
          'squatted-admin@mate.test': 'member',
        });
        expect(await after.runMigrations({ transaction: 'each' })).toEqual([]);
      } finally {
        await after.destroy();
      }
    });
  });

  describe('with the service running', () => {
    let bed: AuthTestBed;
    beforeAll(async () => {
      bed = await startAuthTestBed('auth_demote_live', { ADMIN_EMAILS: 'boss@mate.test' });
    });
    afterAll(async () => {
      await bed.close();
    });

    const sessionKey = (token: string) =>
      `${bed.svc.env.KEY_PREFIX}:session:${(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid}`;
    const sessionRole = (token: string) => bed.svc.app.get<Redis>(REDIS).hget(sessionKey(token), 'role');
    /** What the code before the fix left for an address in ADMIN_EMAILS: admin on the row and on the session. */
    async function admittedBeforeTheFix(userId: string, token: string) {
      await bed.svc.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [userId]);
      await bed.svc.app.get<Redis>(REDIS).hset(sessionKey(token), 'role', 'admin');
    }
    async function migrate() {
      const runner = bed.svc.dataSource.createQueryRunner();
      try {
        await new DemoteUnverifiedAdmins1795388000000().up(runner);
      } finally {
        await runner.release();
      }
    }

    it('sessions opened as admin before the fix lose the role once the account is verified', async () => {
      // The address was in ADMIN_EMAILS then; it no longer is. Two sessions: sign-up and a sign-in.
      const { token, user } = await bed.register('former-list@mate.test');
      await admittedBeforeTheFix(user.id, token);
      const second = (await bed.call<{ token: string }>('POST', '/api/auth/login', { body: { email: 'former-list@mate.test', password: PASSWORD } })).body.token;
      expect(await sessionRole(second)).toBe('admin');

      await migrate();
      // Still 'admin' in Redis, but unverified: refused everywhere the role matters until...
      expect(await sessionRole(token)).toBe('admin');
      const link = (await bed.nextEmail('former-list@mate.test', 'verify-email')).link;
      expect((await bed.call('POST', '/api/verification/verify', { body: { token: tokenOf(link) } })).status).toBe(200);
      // ...verifying the address, which sets every live session's role from the account.
      expect(await sessionRole(token)).toBe('member');
      expect(await sessionRole(second)).toBe('member');
      expect((await bed.call('GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'member', isVerified: true });
    });

    it('an address still in ADMIN_EMAILS is admin again once its owner verifies it', async () => {
      const { token, user } = await bed.register('boss@mate.test');
      await admittedBeforeTheFix(user.id, token);
      await migrate();
      // The web app's start-up call brings the session's role in line with the account.
      expect((await bed.call('GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'member' });
      expect(await sessionRole(token)).toBe('member');
      const link = (await bed.nextEmail('boss@mate.test', 'verify-email')).link;
      await bed.call('POST', '/api/verification/verify', { body: { token: tokenOf(link) } });
      expect((await bed.call('GET', '/api/auth/me', { token })).body).toMatchObject({ role: 'admin' });
      expect(await sessionRole(token)).toBe('admin');
    });
  });
});
