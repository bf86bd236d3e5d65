import { INTERNAL_TOKEN_HEADER } from '@mate/contracts';
import { BaseServiceEnv } from '../lib/config/config';
import type { TestEnv } from './service-app';

/**
 * Headers that make a test's request look forwarded by the gateway for a client at `address`:
 * a service believes X-Forwarded-For only with the deployment's INTERNAL_TOKEN (ADR 0009). Pass
 * the bed's env when the test sets its own INTERNAL_TOKEN.
 *
 *     await bed.call('POST', '/api/auth/login', { body, headers: viaGateway('203.0.113.7', bed.env) });
 */
export function viaGateway(address: string, env: TestEnv = {}): Record<string, string> {
  return { 'x-forwarded-for': address, [INTERNAL_TOKEN_HEADER]: env.INTERNAL_TOKEN ?? new BaseServiceEnv().INTERNAL_TOKEN };
}
