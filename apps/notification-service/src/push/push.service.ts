import { HttpStatus, Injectable } from '@nestjs/common';
import {
  AuthErrorCode,
  AuthMessages,
  ErrorCode,
  NotificationErrorCode,
  NotificationMessages,
  type NotificationPreferencesDto,
  type VapidPublicKeyDto,
} from '@mate/contracts';
import { AppException, badRequest, unauthorized } from '@mate/server-kit';
import type { PushSubscriptionBody } from './dto/push-requests.dto';
import { isAllowedEndpoint } from './push-endpoint';
import { PushSettings } from './push-settings';
import type { PreferenceChange } from './preference-patch.pipe';
import { PushRepository } from './push.repository';

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Bytes of a base64url text, or null when it is not base64url. */
function base64urlBytes(text: string): Buffer | null {
  return BASE64URL.test(text) ? Buffer.from(text.replace(/=+$/, ''), 'base64url') : null;
}

const pushNotConfigured = () =>
  new AppException(
    NotificationMessages.pushNotConfigured,
    ErrorCode.ServiceUnavailable,
    HttpStatus.SERVICE_UNAVAILABLE,
  );

/** The member's side of push (spec 001 §3, §7): the key, their devices and their preferences. */
@Injectable()
export class PushService {
  constructor(
    private readonly settings: PushSettings,
    private readonly repository: PushRepository,
  ) {}

  vapidPublicKey(): VapidPublicKeyDto {
    if (!this.settings.vapid) throw pushNotConfigured();
    return { publicKey: this.settings.vapid.publicKey };
  }

  /**
   * Stores a device's subscription. The endpoint must be an https URL of a public push service
   * (push-endpoint.ts), the keys an uncompressed P-256 point and a 16-byte secret: a subscription
   * we could never encrypt for is refused now rather than failing every push. The call has
   * counted against the member's limit before (the kit's guard: PushRateLimiter).
   */
  async subscribe(userId: string, body: PushSubscriptionBody): Promise<void> {
    if (!this.settings.configured) throw pushNotConfigured();
    if (!isAllowedEndpoint(body.endpoint, this.settings.policy))
      throw badRequest(NotificationMessages.endpointNotAllowed, NotificationErrorCode.EndpointNotAllowed);
    const p256dh = base64urlBytes(body.keys.p256dh);
    const auth = base64urlBytes(body.keys.auth);
    if (!p256dh || p256dh.length !== 65 || p256dh[0] !== 0x04 || !auth || auth.length !== 16) {
      throw badRequest(NotificationMessages.invalidSubscription);
    }
    const saved = await this.repository.saveSubscription(userId, body.endpoint, body.keys.p256dh, body.keys.auth);
    if (saved === 'erased') throw unauthorized(AuthMessages.sessionExpired, AuthErrorCode.AccountDeleted);
  }

  /** Removes one device's subscription or, without an endpoint, all of the member's. Always allowed. */
  async unsubscribe(userId: string, endpoint?: string): Promise<number> {
    return this.repository.removeSubscriptions(userId, endpoint);
  }

  preferences(userId: string): Promise<NotificationPreferencesDto> {
    return this.repository.preferencesOf(userId);
  }

  /** The account was deleted meanwhile (its session ended with it): 401, nothing written. */
  async setPreference(userId: string, change: PreferenceChange): Promise<NotificationPreferencesDto> {
    const preferences = await this.repository.setPreference(userId, change.key, change.value);
    if (preferences === 'erased') throw unauthorized(AuthMessages.sessionExpired, AuthErrorCode.AccountDeleted);
    return preferences;
  }
}
