import { Injectable } from '@nestjs/common';
import type { EventHandlers, EventHandlerSet } from '@mate/server-kit';
import { BlockedPairs } from '../blocks/blocked-pairs';
import { ProfilesService } from './profiles.service';

/**
 * Events profile-service consumes; the consumer runs each once per event id, in one transaction,
 * and a state-carrying one only when it is newer than its aggregate's applied version (user,
 * pair).
 */
@Injectable()
export class ProfileEventHandlers implements EventHandlerSet {
  constructor(
    private readonly profiles: ProfilesService,
    private readonly blocks: BlockedPairs,
  ) {}

  handlers(): EventHandlers {
    return {
      'user.registered': (payload, manager) => this.profiles.applyRegistration(manager, payload),
      'user.verified': (payload, manager) => this.profiles.applyVerification(manager, payload),
      'user.blocked': (payload, manager) => this.blocks.apply(manager, payload),
      'user.unblocked': (payload, manager) => this.blocks.apply(manager, payload),
    };
  }
}
