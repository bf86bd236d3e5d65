import type { ServiceName } from './events';
import { SERVICE_REGISTRY } from './services';

type PortName = ServiceName | 'web' | 'admin-web' | 'smtp' | 'maildevWeb';

/** Default ports on one machine (ARCHITECTURE §1); the services' come from their registry. */
export const DEFAULT_PORTS = {
  gateway: 3000,
  ...(Object.fromEntries(SERVICE_REGISTRY.map((s) => [s.name, s.port])) as Record<Exclude<ServiceName, 'gateway'>, number>),
  web: 4200,
  'admin-web': 4300,
  smtp: 1025,
  maildevWeb: 1080,
} as const satisfies Record<PortName, number>;

/** Public routes of the web app that emails link to (spec 000 §2). */
export const WEB_ROUTES = {
  verifyEmail: '/verify-email',
  resetPassword: '/reset-password',
  verifyEmailChange: '/verify-email-change',
  /** Linked from the notice an email change sends to the current address (issue 7). */
  cancelEmailChange: '/cancel-email-change',
} as const;
