import { Injectable } from '@nestjs/common';
import type { EventHandlers, EventHandlerSet } from '@mate/server-kit';
import { BlockedPairs } from '../blocks/blocked-pairs';
import { ProfileErasure } from '../member-data/profile-erasure';
import { ProfilesService } from './profiles.service';

/**
 * Events profile-service consumes; the consumer runs each once per event id, in one transaction,
 * and a state-carrying one only when it is newer than its aggregate's applied version (user,
 * pair). Once a member is erased (user.deleted) the kit drops every later event naming them.
 * user.suspended and user.unsuspended are the kit's suspension projection's (AppModule's
 * `projections`): profile-service adds nothing of its own to them.
 */
@Injectable()
export class ProfileEventHandlers implements EventHandlerSet {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly blocks: BlockedPairs,
    private readonly erasure: ProfileErasure,
  ) {}

  handlers(): EventHandlers {
    return {
      'user.registered': (payload, manager) => this.profiles.applyRegistration(manager, payload),
      'user.verified': (payload, manager) => this.profiles.applyVerification(manager, payload),
      'user.blocked': (payload, manager) => this.blocks.apply(manager, payload),
      'user.unblocked': (payload, manager) => this.blocks.apply(manager, payload),
      'user.deleted': (payload, manager) => this.erasure.erase(manager, payload),
    };
  }
}
