import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, MatchCreatedPayload, ProfileUpdatedPayload } from '@mate/contracts';
import type { EventHandlers, EventHandlerSet } from '@mate/server-kit';
import { MembersRepository } from './members.repository';
import { PairsRepository } from './pairs.repository';
import { SafetyMemberErasure } from '../member-data/safety-member-erasure';

/**
 * Events safety-service consumes. The consumer runs each once per event id, in one transaction,
 * and a profile.updated only when its version is newer than the one applied for that profile;
 * payloads arrive read against their catalogue class (ids lower case, a match's pair ascending).
 */
@Injectable()
export class SafetyEventHandlers implements EventHandlerSet {
  constructor(
    private readonly members: MembersRepository,
    private readonly pairs: PairsRepository,
    private readonly erasure: SafetyMemberErasure,
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
    await this.members.apply(manager, payload, envelope.aggregateVersion ?? 0);
  }

  /** The match an unmatch ends (a late or repeated one resurrects nothing: PairsRepository.recordMatch). */
  async recordMatch(manager: EntityManager, payload: MatchCreatedPayload): Promise<void> {
    const [a, b] = payload.userIds;
    await this.pairs.recordMatch(manager, a, b, payload.matchId, new Date(payload.createdAt), payload.pairVersion ?? null);
  }
}
