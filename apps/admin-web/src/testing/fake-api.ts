import type { AdminApi, MateAdminApi } from '@mate/api-client';
import type { AdminReportDto, AuthResponse, UserDto } from '@mate/contracts';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY, LEGACY_TOKEN_KEY } from '@mate/contracts';
import { vi, type Mock } from 'vitest';

type Fake<T> = { [K in keyof T]: { [M in keyof T[K]]: T[K][M] extends (...args: infer A) => infer R ? Mock<(...args: A) => R> : never } };
export type FakeAdminApi = Fake<MateAdminApi>;

function unstubbed(name: string) {
  return vi.fn(() => Promise.reject(new Error(`${name} was not stubbed`)));
}

const ADMIN_METHODS: (keyof AdminApi)[] = [
  'getReports',
  'getReportsPage',
  'getReport',
  'updateReport',
  'getUser',
  'suspendUser',
  'unsuspendUser',
  'deleteUser',
  'searchUsers',
  'getPendingPhotos',
  'approvePhoto',
  'rejectPhoto',
  'getStats',
  'getOverview',
  'getUserGrowth',
  'getEngagement',
  'getMatchAnalytics',
  'getRetention',
  'getSafety',
  'getReportTrends',
  'getAuditLogs',
  'createQueueDashboardSession',
];

/** A MateAdminApi whose every call fails until a test says what it answers. */
export function createFakeApi(): FakeAdminApi {
  const admin = Object.fromEntries(ADMIN_METHODS.map((name) => [name, unstubbed(`admin.${name}`)])) as unknown as FakeAdminApi['admin'];
  // Synchronous: paths on a fake API origin.
  admin.apiUrl = vi.fn((path: string) => (/^[a-z]+:/i.test(path) ? path : `http://api.test${path}`));
  return {
    auth: {
      register: unstubbed('auth.register'),
      login: unstubbed('auth.login'),
      logout: vi.fn(() => Promise.resolve()),
      me: unstubbed('auth.me'),
      forgotPassword: unstubbed('auth.forgotPassword'),
      verifyResetToken: unstubbed('auth.verifyResetToken'),
      resetPassword: unstubbed('auth.resetPassword'),
      requestEmailChange: unstubbed('auth.requestEmailChange'),
      verifyEmailChange: unstubbed('auth.verifyEmailChange'),
      cancelEmailChange: unstubbed('auth.cancelEmailChange'),
    },
    admin,
  };
}

export function aUser(overrides: Partial<UserDto> = {}): UserDto {
  return { id: 'admin-1', email: 'admin@mate.test', name: 'Ada Admin', role: 'admin', ...overrides } as UserDto;
}

export function anAuthResponse(user: UserDto = aUser(), token = 'tok-admin'): AuthResponse {
  return { token, user } as AuthResponse;
}

export function storeSession(user: UserDto | null = aUser(), token = 'tok-admin'): void {
  window.localStorage.setItem(AUTH_TOKEN_KEY, token);
  window.localStorage.setItem(LEGACY_TOKEN_KEY, token);
  if (user) window.localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
}

/** A stored admin session the server confirms. */
export function signedInAdminApi(user: UserDto = aUser()): FakeAdminApi {
  storeSession(user);
  const api = createFakeApi();
  api.auth.me.mockResolvedValue(user);
  return api;
}

/** Report `n`: pending, harassment, by Reporter n about Reported n. */
export function aReport(n: number, overrides: Partial<AdminReportDto> = {}): AdminReportDto {
  return {
    id: `r${n}`,
    status: 'pending',
    reason: 'harassment',
    details: null,
    resolution: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    resolvedAt: null,
    reporterId: `reporter-${n}`,
    reporterName: `Reporter ${n}`,
    reporterEmail: `reporter${n}@mate.test`,
    reportedUserId: `reported-${n}`,
    reportedUserName: `Reported ${n}`,
    reportedUserEmail: `reported${n}@mate.test`,
    ...overrides,
  };
}
