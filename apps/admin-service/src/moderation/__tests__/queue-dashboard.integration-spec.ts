import { Queue } from 'bullmq';
import Redis from 'ioredis';
import { QueueName } from '@mate/contracts';
import { SessionStore } from '@mate/server-kit';
import type { SignedIn } from '@mate/server-kit/testing';
import { startAdminTestBed, type AdminTestBed } from '../../__tests__/admin-test-bed';
import { dashboardQueueNames, QUEUE_DASHBOARD_COOKIE, QueueDashboardMessages } from '../queues.service';

/** A GET of the dashboard as a browser makes it: no bearer token, no redirect following. */
async function browse(t: AdminTestBed, path: string, cookie?: string) {
  const res = await fetch(`${t.bed.url}${path}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const text = await res.text();
  return { status: res.status, text, headers: res.headers };
}

/** The dashboard link's ticket exchanged for its cookie (`name=value`). */
async function enter(t: AdminTestBed, who: SignedIn, prefix = '/api/admin'): Promise<{ cookie: string; setCookie: string }> {
  const link = await t.api<{ url: string }>(who, 'POST', `${prefix}/queues/session`);
  expect(link.status).toBe(200);
  expect(link.body.url).toMatch(/^\/admin\/queues\/\?ticket=[A-Za-z0-9_-]{43}$/);
  const res = await browse(t, link.body.url);
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/admin/queues/');
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], setCookie };
}

describe('queue dashboard (admins only, one-time link then a cookie bound to the admin session)', () => {
  let t: AdminTestBed;

  beforeAll(async () => {
    t = await startAdminTestBed('admin_queues');
  });

  afterAll(() => t?.close());

  it('shows an admin every queue of every service', async () => {
    const admin = await t.admin();
    const { cookie, setCookie } = await enter(t, admin);
    expect(setCookie).toMatch(new RegExp(`^${QUEUE_DASHBOARD_COOKIE}=`));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\/admin\/queues/);
    const page = await browse(t, '/admin/queues/', cookie);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<html/i);
    const api = await browse(t, '/admin/queues/api/queues', cookie);
    expect(api.status).toBe(200);
    const names = (JSON.parse(api.text) as { queues: { name: string }[] }).queues.map((q) => q.name).sort();
    expect(names).toEqual(dashboardQueueNames());
    expect(names).toEqual(
      expect.arrayContaining(['jobs.account-admin', 'jobs.photo-admin', 'jobs.report-admin', 'jobs.email', 'events.admin-service', 'events.profile-service']),
    );
  });

  it("never shows a secret a job carries: an email job's reset link is masked", async () => {
    const admin = await t.admin();
    const { cookie } = await enter(t, admin);
    const token = 'c2VjcmV0LXJlc2V0LXRva2VuLW9mLWEtbWVtYmVy';
    const connection = new Redis(t.bed.env.REDIS_URL, { maxRetriesPerRequest: null });
    const queue = new Queue(QueueName.Email, { connection, prefix: t.bed.env.KEY_PREFIX });
    try {
      await queue.add('email', {
        id: 'job-1',
        queue: QueueName.Email,
        createdAt: new Date().toISOString(),
        data: { template: 'reset-password', to: 'member@example.com', name: 'Member', link: `https://mate.example/reset-password?token=${token}` },
      });
      const api = await browse(t, `/admin/queues/api/queues?activeQueue=${QueueName.Email}&status=waiting&page=1`, cookie);
      expect(api.status).toBe(200);
      expect(api.text).toContain('reset-password');
      expect(api.text).not.toContain(token);
      expect(api.text).toContain('[redacted]');
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });

  it('gives the link under both prefixes', async () => {
    const admin = await t.admin();
    await enter(t, admin, '/admin');
  });

  it('refuses a used ticket', async () => {
    const admin = await t.admin();
    const link = await t.api<{ url: string }>(admin, 'POST', '/admin/queues/session');
    expect((await browse(t, link.body.url)).status).toBe(303);
    const again = await browse(t, link.body.url);
    expect(again.status).toBe(401);
    expect(JSON.parse(again.text)).toMatchObject({ error: QueueDashboardMessages.badTicket });
  });

  it("refuses a member: no link for them, and a ticket bound to a member's session is refused", async () => {
    const member = await t.member();
    expect((await t.api(member, 'POST', '/api/admin/queues/session')).status).toBe(403);
    // An admin's link whose session has since lost the admin role (demoted) is a member's ticket.
    const admin = await t.admin();
    const link = await t.api<{ url: string }>(admin, 'POST', '/api/admin/queues/session');
    await t.bed.app.get(SessionStore).setRole(admin.userId, 'member');
    expect((await browse(t, link.body.url)).status).toBe(403);
  });

  it("refuses the cookie once the admin's session is revoked, and refuses no cookie or a made-up one", async () => {
    const admin = await t.admin();
    const { cookie } = await enter(t, admin);
    expect((await browse(t, '/admin/queues/api/queues', cookie)).status).toBe(200);
    await t.bed.app.get(SessionStore).revoke(admin.sessionId, admin.userId);
    const after = await browse(t, '/admin/queues/api/queues', cookie);
    expect(after.status).toBe(401);
    expect(JSON.parse(after.text)).toMatchObject({ error: QueueDashboardMessages.noSession });
    expect((await browse(t, '/admin/queues/')).status).toBe(401);
    expect((await browse(t, '/admin/queues/', `${QUEUE_DASHBOARD_COOKIE}=${'a'.repeat(43)}`)).status).toBe(401);
    expect((await browse(t, '/admin/queues/?ticket=nope')).status).toBe(401);
  });
});
