import { Injectable } from '@nestjs/common';
import type { LikesReceivedDto } from '@mate/contracts';
import { CandidateRepository } from '../candidates/candidate.repository';
import { toSuggestion } from '../matching/suggestion.mapper';
import { LikesReceivedRepository } from './likes-received.repository';

/**
 * "Who liked you" (issue 25). Mate has no paid tier, so who liked a member is theirs to see, free,
 * as on Hinge: each liker with the card Discover would show (name, age, photos), answered with
 * the same like and pass routes Discover uses.
 */
@Injectable()
export class LikesReceivedService {
  constructor(
    private readonly repository: LikesReceivedRepository,
    private readonly candidates: CandidateRepository,
  ) {}

  async likesReceived(userId: string, limit: number, offset: number): Promise<LikesReceivedDto> {
    const { total, likers } = await this.repository.page(userId, limit, offset);
    const cards = await this.candidates.cards(likers.map((l) => l.userId));
    return {
      total,
      // The suggestions' mapper, so a liker reads exactly as their Discover card would; a score
      // and distance mean nothing here and are dropped.
      likers: likers.flatMap(({ userId: likerId, likedAt }) => {
        const card = cards.get(likerId);
        if (!card) return [];
        const { user, photos } = toSuggestion(card, 0, null);
        return [{ user, photos, likedAt: likedAt.toISOString() }];
      }),
    };
  }
}
