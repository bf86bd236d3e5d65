import { Injectable } from '@nestjs/common';
import type { EventHandlers, EventHandlerSet } from '@mate/server-kit';
import { MatchingErasure } from '../member-data/matching-erasure';
import { PairStateWriter } from '../safety/pair-state-writer';
import { CandidateRepository } from './candidate.repository';

/**
 * Events matching-service consumes: the whole profile and the whole preferences of a member, the
 * member's suspension state (auth-service), and safety's pair events (the whole block state of a pair; each also ends the pair's match). The
 * consumer runs each once per event id, in one transaction, and only when it is newer than the
 * version of its aggregate (profile, preferences, user, pair) already applied. Once a member is erased
 * (user.deleted) the kit drops every later event naming them.
 */
@Injectable()
export class MatchingEventHandlers implements EventHandlerSet {
  constructor(
    private readonly candidates: CandidateRepository,
    private readonly pairs: PairStateWriter,
    private readonly erasure: MatchingErasure,
  ) {}

  handlers(): EventHandlers {
    return {
      'profile.updated': (payload, manager) => this.candidates.applyProfile(manager, payload),
      'preferences.updated': (payload, manager) => this.candidates.applyPreferences(manager, payload),
      'user.blocked': (payload, manager) => this.pairs.blocked(manager, payload),
      'user.unblocked': (payload, manager) => this.pairs.unblocked(manager, payload),
      'match.ended': (payload, manager) => this.pairs.matchEnded(manager, payload),
      'user.suspended': (payload, manager) => this.candidates.applySuspension(manager, payload),
      'user.unsuspended': (payload, manager) => this.candidates.applySuspension(manager, payload),
      'user.deleted': (payload, manager) => this.erasure.erase(manager, payload),
    };
  }
}
