import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Patch,
  Post,
  Query,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import {
  NotificationMessages,
  type AuthPrincipal,
  type NotificationPreferencesDto,
  type VapidPublicKeyDto,
} from '@mate/contracts';
import {
  ApiErrors,
  badRequest,
  CountedPerMember,
  CurrentUser,
  UnavailableInterceptor,
} from '@mate/server-kit';
import { PushSubscriptionBody, UnsubscribeBody } from './dto/push-requests.dto';
import {
  NotificationMessageResponse,
  NotificationPreferencesResponse,
  VapidPublicKeyResponse,
} from './dto/push-responses.dto';
import { PreferencePatchPipe, type PreferenceChange } from './preference-patch.pipe';
import { PushRateLimiter } from './push-rate-limits';
import { PushService } from './push.service';

/**
 * Push notifications of the signed-in member (spec 001 §3, §7; issue 12). Every route but the
 * public key needs a live session and acts only on the caller's own devices and preferences.
 */
@ApiTags('notifications')
@UseInterceptors(UnavailableInterceptor)
@Controller('api/notifications')
export class PushController {
  constructor(private readonly push: PushService) {}

  // A member's session, like every route behind the gateway but auth's few: the app asks for the
  // key only when a signed-in member turns push on.
  @Get('vapid-public-key')
  @ApiOkResponse({ type: VapidPublicKeyResponse, description: 'The key the browser subscribes with' })
  @ApiErrors(503)
  vapidPublicKey(): VapidPublicKeyDto {
    return this.push.vapidPublicKey();
  }

  @Post('subscribe')
  @CountedPerMember(PushRateLimiter, 'subscribe')
  @ApiCreatedResponse({
    type: NotificationMessageResponse,
    description: 'The device is subscribed (again, with new keys, when it was)',
  })
  @ApiErrors(400, 401, 503)
  async subscribe(
    @CurrentUser() user: AuthPrincipal,
    @Body() body: PushSubscriptionBody,
  ): Promise<{ message: string }> {
    await this.push.subscribe(user.userId.toLowerCase(), body);
    return { message: NotificationMessages.subscribed };
  }

  @Delete('unsubscribe')
  @ApiOkResponse({
    type: NotificationMessageResponse,
    description: 'That device, or every device of the member, is unsubscribed',
  })
  @ApiErrors(400, 401, 503)
  async unsubscribe(
    @CurrentUser() user: AuthPrincipal,
    @Body() body: UnsubscribeBody,
    @Query() query: UnsubscribeBody,
  ): Promise<{ message: string }> {
    if (body?.endpoint !== undefined && query.endpoint !== undefined && body.endpoint !== query.endpoint) {
      throw badRequest('Give the endpoint once');
    }
    await this.push.unsubscribe(user.userId.toLowerCase(), body?.endpoint ?? query.endpoint);
    return { message: NotificationMessages.unsubscribed };
  }

  @Get('preferences')
  @ApiOkResponse({ type: NotificationPreferencesResponse })
  @ApiErrors(401, 503)
  preferences(@CurrentUser() user: AuthPrincipal): Promise<NotificationPreferencesDto> {
    return this.push.preferences(user.userId.toLowerCase());
  }

  @Patch('preferences')
  @HttpCode(HttpStatus.OK)
  @ApiBody({
    type: NotificationPreferencesResponse,
    description: 'Only the changed key, e.g. { "newLikes": false }',
  })
  @ApiOkResponse({ type: NotificationPreferencesResponse, description: 'All preferences after the change' })
  @ApiErrors(400, 401, 503)
  setPreference(
    @CurrentUser() user: AuthPrincipal,
    @Body(PreferencePatchPipe) change: PreferenceChange,
  ): Promise<NotificationPreferencesDto> {
    return this.push.setPreference(user.userId.toLowerCase(), change);
  }
}
