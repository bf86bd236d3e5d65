import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import webpush, { WebPushError } from 'web-push';
import type { PushPayload } from '@mate/contracts';
import { isAllowedEndpoint, pushAgent } from './push-endpoint';
import { PUSH_TLS_OPTIONS, PushSettings, type PushTlsOptions } from './push-settings';
import type { StoredSubscription } from './push.repository';

/** How long a push service keeps a push for a device that is offline. */
const PUSH_TTL_SECONDS = 24 * 3600;

/**
 * A push the push service did not take, for a reason worth another try (5xx, 429, a timeout, a
 * refused connection). Its message names the status only: never the endpoint (it identifies a
 * device) or the push service's answer.
 */
export class PushDeliveryError extends Error {
  constructor(readonly statusCode: number | null) {
    super(statusCode === null ? 'push service not reached' : `push service answered ${statusCode}`);
    this.name = 'PushDeliveryError';
  }
}

/** sent: the push service took it. gone: the subscription no longer exists there (404/410) or may not be used. */
export type PushOutcome = 'sent' | 'gone';

/**
 * Sends one push with web-push (RFC 8291 encryption, RFC 8292 VAPID) through an agent that only
 * connects to public addresses (push-endpoint.ts), after checking the endpoint's URL again.
 */
@Injectable()
export class PushSender implements OnApplicationShutdown {
  private readonly agent: Agent;

  constructor(
    private readonly settings: PushSettings,
    @Inject(PUSH_TLS_OPTIONS) tls: PushTlsOptions,
  ) {
    this.agent = pushAgent(settings.policy, tls);
  }

  onApplicationShutdown() {
    this.agent.destroy();
  }

  async send(subscription: StoredSubscription, payload: PushPayload): Promise<PushOutcome> {
    const vapid = this.settings.vapid;
    if (!vapid) throw new PushDeliveryError(null);
    // Stored under a looser policy (a test setting) or by an older rule: never called.
    if (!isAllowedEndpoint(subscription.endpoint, this.settings.policy)) return 'gone';
    try {
      await webpush.sendNotification(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        JSON.stringify(payload),
        {
          vapidDetails: vapid,
          TTL: PUSH_TTL_SECONDS,
          contentEncoding: 'aes128gcm',
          urgency: payload.kind === 'new_message' || payload.kind === 'new_match' ? 'high' : 'normal',
          // The push service keeps only the newest of one topic for an offline device.
          topic: topicOf(payload.tag),
          agent: this.agent,
          timeout: this.settings.timeoutMs,
        },
      );
      return 'sent';
    } catch (e) {
      if (e instanceof WebPushError) {
        if (e.statusCode === 404 || e.statusCode === 410) return 'gone';
        throw new PushDeliveryError(e.statusCode);
      }
      throw new PushDeliveryError(null);
    }
  }
}

/** A push topic: at most 32 characters of the URL-safe base64 alphabet (RFC 8030 §5.4). */
function topicOf(tag: string): string {
  return createHash('sha256').update(tag).digest('base64url').slice(0, 32);
}
