import { Injectable } from '@nestjs/common';
import type { EventHandlers, EventHandlerSet } from '@mate/server-kit';
import { ProfileErasure } from '../member-data/profile-erasure';
import { ProfilesService } from './profiles.service';

/**
 * Events profile-service consumes; the consumer runs each once per event id, in one transaction,
 * and a state-carrying one only when it is newer than its aggregate's applied version (user,
 * pair). Once a member is erased (user.deleted) the kit drops every later event naming them.
 * user.suspended, user.unsuspended, user.blocked and user.unblocked are the kit's suspension and
 * pair projections' (AppModule's `projections`): profile-service adds nothing of its own to them.
 */
@Injectable()
export class ProfileEventHandlers implements EventHandlerSet {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly erasure: ProfileErasure,
  ) {}

  handlers(): EventHandlers {
    return {
      'user.registered': (payload, manager) => this.profiles.applyRegistration(manager, payload),
      'user.verified': (payload, manager) => this.profiles.applyVerification(manager, payload),
      'user.deleted': (payload, manager) => this.erasure.erase(manager, payload),
    };
  }
}
