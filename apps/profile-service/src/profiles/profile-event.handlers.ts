import { Injectable } from '@nestjs/common';
import type { EventHandlers, EventHandlerSet } from '@mate/server-kit';
import { ProfilesService } from './profiles.service';

/** Events profile-service consumes; the consumer runs each once per event id, in one transaction. */
@Injectable()
export class ProfileEventHandlers implements EventHandlerSet {
  constructor(private readonly profiles: ProfilesService) {}

  handlers(): EventHandlers {
    return {
      'user.registered': (payload, manager) => this.profiles.applyRegistration(manager, payload),
      'user.verified': (payload, manager) => this.profiles.applyVerification(manager, payload),
    };
  }
}
