import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique } from 'class-validator';
import {
  orderedPairOf,
  type LikeCreatedPayload,
  type MatchCreatedPayload,
  type PassCreatedPayload,
} from '@mate/contracts';
import { Count, Flag, Id, IdList, Optional, Time } from './payload-fields';

/**
 * The two members of a pair, lower case and ascending (`orderedPairOf`), two different members.
 * Transforms run before `IdList`'s own, so the pair is ordered on the lower-cased ids.
 */
export const MemberPair = (): PropertyDecorator => (target, key) => {
  IdList()(target, key);
  ArrayMinSize(2)(target, key);
  ArrayMaxSize(2)(target, key);
  ArrayUnique()(target, key);
  Transform(({ value }) => orderedPairOfIds(value))(target, key);
};

function orderedPairOfIds(value: unknown): unknown {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((id) => typeof id === 'string'))
    return value;
  return orderedPairOf(value[0].toLowerCase(), value[1].toLowerCase());
}

/** `like.created` (matching-service). */
export class LikeCreatedEvent implements LikeCreatedPayload {
  @Id() likerId!: string;
  @Id() likedId!: string;
  @Flag() matched!: boolean;
  @Time() createdAt!: string;
}

/** `pass.created` (matching-service). */
export class PassCreatedEvent implements PassCreatedPayload {
  @Id() passerId!: string;
  @Id() passedId!: string;
  @Time() createdAt!: string;
}

/**
 * `match.created` (matching-service); `pairVersion` is additive, absent in older envelopes, and one
 * that is no version (not a whole number, 0 or more) reads as absent: an envelope from before versions.
 */
export class MatchCreatedEvent implements MatchCreatedPayload {
  @Id() matchId!: string;
  @MemberPair() userIds!: [string, string];
  @Time() createdAt!: string;
  @Transform(({ value }) => (Number.isSafeInteger(value) && (value as number) >= 0 ? value : undefined))
  @Optional()
  @Count()
  pairVersion?: number;
}
