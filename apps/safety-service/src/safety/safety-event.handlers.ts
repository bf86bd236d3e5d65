import { Inject, Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { EntityManager } from 'typeorm';
import type { Logger } from 'pino';
import { matchCreatedFactOf, type EventEnvelope, type MatchCreatedPayload, type ProfileUpdatedPayload } from '@mate/contracts';
import { LOGGER, type EventHandlers, type EventHandlerSet } from '@mate/server-kit';
import { MembersRepository } from './members.repository';
import { PairsRepository } from './pairs.repository';
import { SafetyMemberErasure } from '../member-data/safety-member-erasure';

/**
 * Events safety-service consumes. The consumer runs each once per event id, in one transaction,
 * and a profile.updated only when its version is newer than the one applied for that profile.
 */
@Injectable()
export class SafetyEventHandlers implements EventHandlerSet {
  constructor(
    private readonly members: MembersRepository,
    private readonly pairs: PairsRepository,
    private readonly erasure: SafetyMemberErasure,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  handlers(): EventHandlers {
    return {
      'profile.updated': (payload, manager, envelope) => this.applyProfile(manager, payload, envelope),
      'match.created': (payload, manager) => this.recordMatch(manager, payload),
      'user.deleted': (payload, manager) => this.erasure.erase(manager, payload.userId),
    };
  }

  /** The blocked list's name and photo, and the profile a report keeps. */
  async applyProfile(manager: EntityManager, payload: ProfileUpdatedPayload, envelope: EventEnvelope<'profile.updated'>): Promise<void> {
    if (typeof payload.userId !== 'string' || !isUUID(payload.userId)) {
      this.logger.error('profile.updated with an unreadable payload skipped');
      return;
    }
    await this.members.apply(manager, payload, envelope.aggregateVersion ?? 0);
  }

  /** The match an unmatch ends (a late or repeated one resurrects nothing: PairsRepository.recordMatch). */
  async recordMatch(manager: EntityManager, payload: MatchCreatedPayload): Promise<void> {
    const match = matchCreatedFactOf(payload);
    if (!match) {
      // Retrying would not make it valid; it is kept in processed_event and skipped.
      this.logger.error({ matchId: payload.matchId }, 'match.created with an unreadable payload skipped');
      return;
    }
    await this.pairs.recordMatch(manager, match.userA, match.userB, match.matchId, match.matchedAt, match.pairVersion);
  }
}
