import { ROLE_ADMIN, ROLE_MEMBER } from '@mate/contracts';
import { SessionStore } from '@mate/server-kit';
import { call, startServiceTestBed, type ServiceTestBed, type SignedIn, type TestEnv } from '@mate/server-kit/testing';
import { freePort } from '@mate/testing';
import { AppModule } from '../app.module';

/** The internal credential of the test bed's admin-service (and of owners run beside it). */
export const ADMIN_TEST_INTERNAL_TOKEN = 'admin-test-bed-internal-credential-01';

export interface AdminTestBed {
  bed: ServiceTestBed;
  /** A signed-in admin (a live session with role admin). */
  admin(): Promise<SignedIn>;
  member(): Promise<SignedIn>;
  /** A member whose sessions auth ended on suspension (what a suspended member holds: a token without a session). */
  suspendedMember(): Promise<SignedIn>;
  api<T = Record<string, unknown>>(who: SignedIn | null, method: string, path: string, options?: { body?: unknown; headers?: Record<string, string> }): ReturnType<typeof call<T>>;
  close(): Promise<void>;
}

/** A URL where nothing listens: an owner that does not answer. */
export async function closedServiceUrl(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}`;
}

/**
 * admin-service on the service test bed (real PostgreSQL and Redis). Without owner URLs in `env`
 * every owner is a closed port (each part unavailable).
 */
export async function startAdminTestBed(
  label: string,
  { env = {}, overrides = [] }: { env?: TestEnv; overrides?: { provide: unknown; useValue: unknown }[] } = {},
): Promise<AdminTestBed> {
  const closed = await closedServiceUrl();
  const bed = await startServiceTestBed((e) => AppModule.forRoot(e), {
    label,
    env: {
      INTERNAL_TOKEN: ADMIN_TEST_INTERNAL_TOKEN,
      AUTH_SERVICE_URL: closed,
      PROFILE_SERVICE_URL: closed,
      MATCHING_SERVICE_URL: closed,
      SAFETY_SERVICE_URL: closed,
      ...env,
    },
    overrides,
  });
  const sessions = bed.app.get(SessionStore);
  return {
    bed,
    admin: () => bed.signIn(undefined, ROLE_ADMIN),
    member: () => bed.signIn(undefined, ROLE_MEMBER),
    async suspendedMember() {
      const member = await bed.signIn(undefined, ROLE_MEMBER);
      await sessions.revokeAllForUser(member.userId);
      return member;
    },
    api: (who, method, path, options = {}) => call(bed.url, method, path, { token: who?.token, ...options }),
    close: () => bed.close(),
  };
}
