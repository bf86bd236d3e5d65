import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import Redis from 'ioredis';
import {
  AuthMessages,
  EXPORT_PART_SERVICES,
  eventQueueName,
  GdprErrorCode,
  GdprMessages,
  INTERNAL_TOKEN_HEADER,
  memberExportPath,
  QueueName,
  serviceUrlVariable,
  SERVICES,
  type ExportPartName,
  type MemberDataExport,
  type ServiceName,
} from '@mate/contracts';
import { OutboxService, SessionStore, sessionRevokedChannel } from '@mate/server-kit';
import { waitFor } from '@mate/server-kit/testing';
import { DataSource } from 'typeorm';
import { AccountsService } from '../../accounts/accounts.service';
import { SessionsService } from '../../sessions/sessions.service';
import { MemberDataExportService } from '../member-data-export.service';
import { PASSWORD, startAuthTestBed, tokenOf, type AuthTestBed, type RegisteredMember } from '../../__tests__/auth-test-bed';

const INTERNAL_TOKEN = 'gdpr-test-internal-token-0123456789';
const REMOTE_PARTS = (Object.keys(EXPORT_PART_SERVICES) as ExportPartName[]).filter((p) => p !== 'account');

type StandInMode = 'answer' | 'fail' | 'hang-up' | 'silent';

/**
 * A stand-in for one of the six services a data export asks (profile, matching, chat, call, safety,
 * notification): it serves the internal export route only to the internal credential, answering
 * a part that names the service and the member, or failing the way the test asks.
 */
class StandInService {
  readonly requests: { path: string; credential: string | undefined }[] = [];
  mode: StandInMode = 'answer';
  private readonly server: Server;
  private readonly held = new Set<IncomingMessage>();

  constructor(readonly service: ServiceName) {
    this.server = createServer((req, res) => {
      this.requests.push({ path: req.url ?? '', credential: req.headers[INTERNAL_TOKEN_HEADER] as string | undefined });
      if (req.headers[INTERNAL_TOKEN_HEADER] !== INTERNAL_TOKEN) return void res.writeHead(401).end('{"error":"no"}');
      const match = /^\/internal\/gdpr\/members\/([0-9a-f-]{36})\/export$/.exec(req.url ?? '');
      if (!match) return void res.writeHead(404).end('{"error":"Not found"}');
      if (this.mode === 'fail') return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
      if (this.mode === 'hang-up') return void req.socket.destroy();
      if (this.mode === 'silent') return void this.held.add(req);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ standIn: this.service, userId: match[1] }));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const req of this.held) req.socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('privacy and data: /api/gdpr (issue 12)', () => {
  let bed: AuthTestBed;
  let ds: DataSource;
  let redis: Redis;
  const standIns = new Map<ExportPartName, StandInService>();
  let seq = 0;
  const email = (label: string) => `${label}-${++seq}@mate.test`;

  beforeAll(async () => {
    const urls: Record<string, string> = {};
    for (const part of REMOTE_PARTS) {
      const standIn = new StandInService(EXPORT_PART_SERVICES[part]);
      standIns.set(part, standIn);
      urls[serviceUrlVariable(standIn.service)] = await standIn.start();
    }
    bed = await startAuthTestBed('auth_gdpr', { ...urls, INTERNAL_TOKEN, GDPR_EXPORT_PART_TIMEOUT_MS: '500' });
    ds = bed.svc.dataSource;
    redis = new Redis(bed.svc.env.REDIS_URL as string);
  });

  afterAll(async () => {
    await redis?.quit();
    await bed?.close();
    await Promise.all([...standIns.values()].map((s) => s.close()));
  });

  const standIn = (part: ExportPartName): StandInService => {
    const found = standIns.get(part);
    if (!found) throw new Error(`no stand-in for ${part}`);
    return found;
  };

  afterEach(() => {
    for (const s of standIns.values()) s.mode = 'answer';
  });

  const exportData = (token: string, body?: unknown) =>
    bed.call<{ data: MemberDataExport; error?: string }>('POST', '/api/gdpr/export', { token, body });
  const deleteAccount = (token: string, body: unknown) => bed.call<{ message?: string; error?: string }>('POST', '/api/gdpr/delete-account', { token, body });

  /** Every column of every table of auth's database, as text, that holds the id (the verify command's check). */
  async function columnsHolding(id: string): Promise<string[]> {
    const columns: { table_name: string; column_name: string }[] = await ds.query(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE')`,
    );
    const found: string[] = [];
    for (const { table_name, column_name } of columns) {
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM "${table_name}" WHERE lower("${column_name}"::text) LIKE $1`, [`%${id.toLowerCase()}%`]);
      if (n > 0) found.push(`${table_name}.${column_name}`);
    }
    return found;
  }

  async function redisKeysHolding(text: string): Promise<string[]> {
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${bed.svc.env.KEY_PREFIX}:*`, 'COUNT', 1000);
      keys.push(...batch.filter((k) => k.toLowerCase().includes(text.toLowerCase())));
      cursor = next;
    } while (cursor !== '0');
    return keys;
  }

  describe('POST /api/gdpr/export', () => {
    it('assembles the account part and the six other services’ parts, asked with the internal credential, and is never cached', async () => {
      const address = email('export');
      const member = await bed.registerVerified(address, { name: 'Ana Lima', age: 29 });
      const changeTo = email('export-new');
      expect((await bed.call('POST', '/api/auth/request-email-change', { token: member.token, body: { newEmail: changeTo } })).status).toBe(200);

      const res = await exportData(member.token);

      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const data = res.body.data;
      expect(data).toMatchObject({ format: 'mate-data-export', formatVersion: 1, userId: member.user.id });
      expect(Date.parse(data.exportedAt)).not.toBeNaN();
      expect(data.account).toMatchObject({
        id: member.user.id,
        email: address,
        name: 'Ana Lima',
        age: 29,
        role: 'member',
        isVerified: true,
        emailChanges: [{ newEmail: changeTo, completedAt: null }],
      });
      expect(data.account.sessions).toEqual([expect.objectContaining({ revokedAt: null, deviceInfo: expect.any(String) })]);
      expect(JSON.stringify(data)).not.toMatch(/password|token_?hash|argon2/i);
      for (const part of REMOTE_PARTS) {
        expect(data[part]).toEqual({ standIn: EXPORT_PART_SERVICES[part], userId: member.user.id });
        const asked = standIn(part).requests.filter((r) => r.path === memberExportPath(member.user.id));
        expect(asked).toEqual([{ path: memberExportPath(member.user.id), credential: INTERNAL_TOKEN }]);
      }
    });

    it('marks the email change that gave the account its address as completed', async () => {
      const member = await bed.registerVerified(email('changed'));
      const changeTo = email('changed-new');
      await bed.call('POST', '/api/auth/request-email-change', { token: member.token, body: { newEmail: changeTo } });
      const link = (await bed.nextEmail(changeTo, 'email-change')).link;
      expect((await bed.call('POST', '/api/auth/verify-email-change', { body: { token: tokenOf(link) } })).status).toBe(200);

      const res = await exportData(member.token);

      expect(res.body.data.account).toMatchObject({ email: changeTo, emailChanges: [{ newEmail: changeTo, completedAt: expect.any(String) }] });
    });

    it('is open to an unverified account', async () => {
      const member = await bed.register(email('unverified'));
      const res = await exportData(member.token);
      expect(res.status).toBe(200);
      expect(res.body.data.account).toMatchObject({ id: member.user.id, isVerified: false });
    });

    it.each<[StandInMode, string]>([
      ['fail', 'answers 500'],
      ['hang-up', 'drops the connection'],
      ['silent', 'does not answer within the timeout'],
    ])('answers 503 with no data when one service %s (%s)', async (mode) => {
      const member = await bed.registerVerified(email(`down-${mode}`));
      standIn('chat').mode = mode;

      const res = await exportData(member.token);

      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ error: GdprMessages.exportUnavailable });
      expect(res.body).not.toHaveProperty('data');
    });

    it('refuses a body with fields, and a caller without a session', async () => {
      const member = await bed.registerVerified(email('body'));
      expect(await exportData(member.token, { everything: true })).toMatchObject({ status: 400, body: { error: 'Unknown field: everything' } });
      expect((await bed.call('POST', '/api/gdpr/export')).status).toBe(401);
    });

    it('allows 5 exports an hour per member, then answers 429 (another member is not held up)', async () => {
      const member = await bed.registerVerified(email('limit'));
      for (let i = 0; i < 5; i++) expect((await exportData(member.token)).status).toBe(200);

      const refused = await exportData(member.token);

      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: GdprMessages.tooManyExports });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const other = await bed.registerVerified(email('limit-other'));
      expect((await exportData(other.token)).status).toBe(200);
    });

    it('answers 401 when the account is gone by the time the parts are read (deleted from another device)', async () => {
      await expect(bed.svc.app.get(MemberDataExportService).exportFor(randomUUID())).rejects.toMatchObject({ status: 401 });
    });

    it('serves the account part on the internal route only with the internal credential', async () => {
      const member = await bed.registerVerified(email('internal'));
      const path = memberExportPath(member.user.id);
      expect((await bed.call('GET', path)).status).toBe(403);
      expect((await bed.call('GET', path, { token: member.token })).status).toBe(403);
      const res = await bed.call('GET', path, { headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN } });
      expect(res).toMatchObject({ status: 200, body: { id: member.user.id, email: member.user.email } });
    });
  });

  describe('POST /api/gdpr/delete-account', () => {
    /**
     * A member with a row in every table of auth-service and keys in Redis: a second session, a
     * pending email change, a reset link, a resend and an export counted by the rate limits.
     */
    async function memberWithEverything(label: string): Promise<RegisteredMember & { secondToken: string; address: string }> {
      const address = email(label);
      const member = await bed.registerVerified(address, { name: 'Bea Souza', age: 31 });
      const login = await bed.call<{ token: string }>('POST', '/api/auth/login', { body: { email: address, password: PASSWORD } });
      expect(login.status).toBe(200);
      expect((await bed.call('POST', '/api/auth/request-email-change', { token: member.token, body: { newEmail: email(`${label}-new`) } })).status).toBe(200);
      expect((await bed.call('POST', '/api/auth/forgot-password', { body: { email: address } })).status).toBe(200);
      await bed.nextEmail(address, 'reset-password');
      expect((await exportData(member.token)).status).toBe(200);
      return { ...member, secondToken: login.body.token, address };
    }

    it('refuses a wrong email with a clear error and changes nothing', async () => {
      const member = await memberWithEverything('wrong');

      const res = await deleteAccount(member.token, { confirmEmail: 'someone-else@mate.test' });

      expect(res).toMatchObject({
        status: 400,
        body: { error: GdprMessages.confirmEmailMismatch, code: GdprErrorCode.ConfirmEmailMismatch },
      });
      expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(200);
      expect((await bed.call('GET', '/api/auth/me', { token: member.secondToken })).status).toBe(200);
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM outbox WHERE name = 'user.deleted'`);
      expect(n).toBe(0);
      expect(await columnsHolding(member.user.id)).toEqual(expect.arrayContaining(['users.id', 'sessions.user_id', 'auth_tokens.user_id']));
    });

    it('refuses an admin account with a clear 403 until the role is revoked, then erases it (issue 24)', async () => {
      const member = await memberWithEverything('admin-self');
      const accounts = bed.svc.app.get(AccountsService);
      await accounts.grantAdmin(member.address);

      const refused = await deleteAccount(member.token, { confirmEmail: member.address });

      expect(refused).toMatchObject({
        status: 403,
        body: { error: GdprMessages.adminCannotDeleteAccount, code: GdprErrorCode.AdminCannotDeleteAccount },
      });
      expect(await bed.call('GET', '/api/auth/me', { token: member.token })).toMatchObject({ status: 200, body: { role: 'admin' } });
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM outbox WHERE name = 'user.deleted' AND body->'payload'->>'userId' = $1`, [member.user.id]);
      expect(n).toBe(0);

      await accounts.revokeAdmin(member.address);
      expect(await deleteAccount(member.token, { confirmEmail: member.address })).toMatchObject({ status: 200, body: { message: GdprMessages.accountDeleted } });
    });

    it.each([
      [{}, 'Please enter your email address to confirm'],
      [{ confirmEmail: 42 }, 'Please enter your email address to confirm'],
      [{ confirmEmail: `${'a'.repeat(250)}@mate.test` }, 'Email must be at most 254 characters'],
      [{ confirmEmail: 'x@mate.test', everything: true }, 'Unknown field: everything'],
    ])('refuses the body %j with 400', async (body, error) => {
      const member = await bed.registerVerified(email('dto'));
      expect(await deleteAccount(member.token, body)).toMatchObject({ status: 400, body: { error } });
      expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(200);
    });

    it('erases the account at once: sessions and sockets end, user.deleted goes out, no table or key keeps the id', async () => {
      const member = await memberWithEverything('gone');
      const id = member.user.id;
      const sessionIds: string[] = (await ds.query('SELECT id FROM sessions WHERE user_id = $1', [id])).map((r: { id: string }) => r.id);
      expect(sessionIds).toHaveLength(2);
      expect(await redisKeysHolding(id)).not.toEqual([]);
      const subscriber = new Redis(bed.svc.env.REDIS_URL as string);
      const announced: string[] = [];
      subscriber.on('message', (_channel, sessionId: string) => announced.push(sessionId));
      await subscriber.subscribe(sessionRevokedChannel(bed.svc.env.KEY_PREFIX as string));
      const connection = new Redis(bed.svc.env.REDIS_URL as string, { maxRetriesPerRequest: null });
      const profileEvents = new Queue(eventQueueName(SERVICES.profile), { connection, prefix: bed.svc.env.KEY_PREFIX });
      try {
        // Typed as the member would: spaces and capitals do not matter.
        const res = await deleteAccount(member.token, { confirmEmail: `  ${member.address.toUpperCase()} ` });

        expect(res).toMatchObject({ status: 200, body: { message: GdprMessages.accountDeleted } });
        // Every session ends now: the guards' check fails and the gateways are told to close their sockets.
        const store = bed.svc.app.get(SessionStore);
        for (const sessionId of sessionIds) expect(await store.touch(sessionId, id)).toBeNull();
        await waitFor(async () => (sessionIds.every((s) => announced.includes(s)) ? true : undefined), { what: 'both sessions announced as ended' });
        expect((await deleteAccount(member.token, { confirmEmail: member.address })).status).toBe(401);
        expect((await bed.call('GET', '/api/auth/me', { token: member.secondToken })).status).toBe(401);
        // user.deleted reaches every consumer's queue, and the relay then drops its outbox row.
        const job = await waitFor(async () => (await profileEvents.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).find((j) => j.data?.name === 'user.deleted'), {
          what: 'user.deleted in profile-service’s queue',
        });
        expect(job.data).toMatchObject({ name: 'user.deleted', producer: SERVICES.auth, payload: { userId: id, deletedAt: expect.any(String) } });
        await waitFor(async () => ((await columnsHolding(id)).length === 0 ? true : undefined), { what: 'no table of auth-service holding the id' });
        const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM outbox WHERE strpos(lower(body::text), $1) > 0', [member.address]);
        expect(n).toBe(0);
        expect(await redisKeysHolding(id)).toEqual([]);
        expect(await redisKeysHolding(member.address)).toEqual([]);
      } finally {
        await profileEvents.close();
        await connection.quit();
        await subscriber.quit();
      }
    });

    it('leaves no queued email to an address the account had before an email change', async () => {
      const first = email('moved');
      const member = await bed.registerVerified(first);
      const second = email('moved-new');
      await bed.call('POST', '/api/auth/request-email-change', { token: member.token, body: { newEmail: second } });
      const link = (await bed.nextEmail(second, 'email-change')).link;
      expect((await bed.call('POST', '/api/auth/verify-email-change', { body: { token: tokenOf(link) } })).status).toBe(200);
      const held = async (address: string) =>
        ((await ds.query('SELECT count(*)::int AS n FROM outbox WHERE strpos(lower(body::text), $1) > 0', [address])) as { n: number }[])[0].n;
      expect(await held(first)).toBeGreaterThan(0);
      // Someone else's email whose address contains hers stays queued (exact addresses only).
      const lookalike = `d${first}`;
      await ds.transaction((m) =>
        bed.svc.app.get(OutboxService).enqueueJob(m, QueueName.Email, { template: 'verify-email', to: lookalike, name: null, link: 'http://localhost:4200/verify-email?token=t' }),
      );

      expect((await deleteAccount(member.token, { confirmEmail: second })).status).toBe(200);

      // Quoted: her address as a whole JSON string (the look-alike contains it as a substring).
      expect(await held(`"${first}"`)).toBe(0);
      expect(await held(second)).toBe(0);
      expect(await held(lookalike)).toBe(1);
    });

    it('refuses the old password afterwards, and the email can make a new account', async () => {
      const member = await memberWithEverything('again');
      expect((await deleteAccount(member.token, { confirmEmail: member.address })).status).toBe(200);

      const login = await bed.call('POST', '/api/auth/login', { body: { email: member.address, password: PASSWORD } });
      expect(login).toMatchObject({ status: 401, body: { error: AuthMessages.invalidCredentials } });

      const again = await bed.register(member.address);
      expect(again.user.id).not.toBe(member.user.id);
      expect((await bed.call('GET', '/api/auth/me', { token: again.token })).status).toBe(200);
      await waitFor(async () => ((await columnsHolding(member.user.id)).length === 0 ? true : undefined), { what: 'no table holding the old id' });
    });

    it('gives no session to a sign-in that meets the deletion (the account gone before the session row, or just after it)', async () => {
      const sessions = bed.svc.app.get(SessionsService);
      const device = { deviceInfo: 'Test', ipAddress: '127.0.0.1' };
      const store = bed.svc.app.get(SessionStore);
      // Before: the session row has no account to belong to.
      const gone = randomUUID();
      await expect(sessions.start(gone, 'member', true, device)).rejects.toMatchObject({ status: 401 });
      expect(await redis.smembers(`${bed.svc.env.KEY_PREFIX}:user-sessions:${gone}`)).toEqual([]);

      // Just after: the row is written, then the deletion commits and ends the sessions it sees
      // before the Redis entry exists (a trigger stands in for the deletion's timing).
      const member = await bed.registerVerified(email('race'));
      await ds.query(`CREATE FUNCTION delete_account_now() RETURNS trigger AS $$ BEGIN DELETE FROM users WHERE id = NEW.user_id; RETURN NULL; END $$ LANGUAGE plpgsql`);
      await ds.query(`CREATE TRIGGER delete_account_now AFTER INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION delete_account_now()`);
      try {
        await expect(sessions.start(member.user.id, 'member', true, device)).rejects.toMatchObject({ status: 401 });
      } finally {
        await ds.query('DROP TRIGGER delete_account_now ON sessions');
        await ds.query('DROP FUNCTION delete_account_now()');
      }
      const left = await redis.smembers(`${bed.svc.env.KEY_PREFIX}:user-sessions:${member.user.id}`);
      // Only the sign-up session (which the stand-in deletion did not end) is left; the new one never lived.
      expect(left).toHaveLength(1);
      expect(await store.touch(left[0], member.user.id)).not.toBeNull();
    });

    it('is open to an unverified account', async () => {
      const address = email('unverified-delete');
      const member = await bed.register(address);
      expect((await deleteAccount(member.token, { confirmEmail: address })).status).toBe(200);
      expect((await bed.call('GET', '/api/auth/me', { token: member.token })).status).toBe(401);
    });
  });
});
