import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** matching's counts for the admin area (issue 13). */
@Injectable()
export class MatchingAdminService {
  constructor(private readonly dataSource: DataSource) {}

  /** The member's matches that stand now (an unmatch, a block or an erasure deletes a match). */
  async liveMatchCount(userId: string): Promise<number> {
    const rows = await this.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM match WHERE user_a = $1 OR user_b = $1',
      [userId],
    );
    return rows[0]?.n ?? 0;
  }

  /**
   * Every match ever made, ended ones included (match_history, written with each match and never
   * deleted): "total matches" is how many pairs the product has made, not how many still stand.
   * Live matches count too, so one written without its history row (the demo seeder writes the
   * match table directly) is not missed; a match in both is counted once.
   */
  async matchesEverMade(): Promise<number> {
    const rows = await this.dataSource.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM (SELECT match_id AS id FROM match_history UNION SELECT id FROM match) made',
    );
    return rows[0]?.n ?? 0;
  }
}
