import type { AgentOptions } from 'node:https';
import { NotificationEnv } from '../notification.env';
import type { EndpointPolicy } from './push-endpoint';

/**
 * TLS options of the push agent. Empty in production (the system's CAs); a test trusts its
 * stand-in push service's own certificate here (`{ ca }`), and nothing else changes.
 */
export const PUSH_TLS_OPTIONS = Symbol('PUSH_TLS_OPTIONS');
export type PushTlsOptions = Pick<AgentOptions, 'ca'>;

/** Push settings read once from the environment. */
export class PushSettings {
  readonly vapid: { publicKey: string; privateKey: string; subject: string } | null;
  readonly policy: EndpointPolicy;
  readonly collapseMs: number;
  readonly attempts: number;
  readonly backoffMs: number;
  readonly timeoutMs: number;

  constructor(env: NotificationEnv) {
    this.vapid =
      env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY
        ? { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT }
        : null;
    this.policy = { allowLoopback: env.PUSH_ALLOW_LOOPBACK_ENDPOINTS === 'on' };
    this.collapseMs = env.PUSH_COLLAPSE_MS;
    this.attempts = env.PUSH_ATTEMPTS;
    this.backoffMs = env.PUSH_BACKOFF_MS;
    this.timeoutMs = env.PUSH_TIMEOUT_MS;
  }

  /** Without a VAPID key pair nothing is pushed and the routes answer 503. */
  get configured(): boolean {
    return this.vapid !== null;
  }
}
