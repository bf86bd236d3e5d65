import { Injectable } from '@nestjs/common';
import { MatchesRepository } from '../matching/matches.repository';

/** matching's counts for the admin area (issue 13). */
@Injectable()
export class MatchingAdminService {
  constructor(private readonly matches: MatchesRepository) {}

  /** The member's matches that stand now (an unmatch, a block or an erasure deletes a match). */
  liveMatchCount(userId: string): Promise<number> {
    return this.matches.liveMatchCount(userId);
  }

  /**
   * Every match ever made, ended ones included (match_history, written with each match and never
   * deleted): "total matches" is how many pairs the product has made, not how many still stand.
   * Live matches count too, so one written without its history row (the demo seeder writes the
   * match table directly) is not missed; a match in both is counted once.
   */
  matchesEverMade(): Promise<number> {
    return this.matches.matchesEverMade();
  }
}
