import { Injectable } from '@nestjs/common';
import type { EventHandlers, EventHandlerSet } from '@mate/server-kit';
import { CandidateWriter } from './candidate-writer';

/**
 * Events matching-service consumes: the whole profile and the whole preferences of a member.
 * The consumer runs each once per event id, in one transaction, and only when it is newer than
 * the version of its aggregate (profile, preferences) already applied.
 */
@Injectable()
export class MatchingEventHandlers implements EventHandlerSet {
  constructor(private readonly candidates: CandidateWriter) {}

  handlers(): EventHandlers {
    return {
      'profile.updated': (payload, manager) => this.candidates.applyProfile(manager, payload),
      'preferences.updated': (payload, manager) => this.candidates.applyPreferences(manager, payload),
    };
  }
}
