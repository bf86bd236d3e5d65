import type { ServiceName } from './events';

/** Default ports on one machine (ARCHITECTURE §1). */
export const DEFAULT_PORTS = {
  gateway: 3000,
  'auth-service': 3101,
  'profile-service': 3102,
  'matching-service': 3103,
  'chat-service': 3104,
  'call-service': 3105,
  'safety-service': 3106,
  'admin-service': 3107,
  'notification-service': 3108,
  web: 4200,
  'admin-web': 4300,
  smtp: 1025,
  maildevWeb: 1080,
} as const satisfies Record<ServiceName | 'web' | 'admin-web' | 'smtp' | 'maildevWeb', number>;

/** Public routes of the web app that emails link to (spec 000 §2). */
export const WEB_ROUTES = {
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
  verifyEmailChange: '/verify-email-change',
} as const;
