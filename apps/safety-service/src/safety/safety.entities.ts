import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { PairMessageSnapshot, ReportReason } from '@mate/contracts';

/**
 * The tables of src/migrations/1795700000000-CreateSafety.ts. The services use SQL (each rule
 * under the pair's row lock); the entities describe the schema for TypeORM, seeders and the admin
 * issue.
 */
@Entity({ name: 'safety_member' })
export class SafetyMember {
  @PrimaryColumn({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ name: 'profile_picture', type: 'text', nullable: true })
  profilePicture!: string | null;

  /** The profile a report keeps: profile.updated's payload without coordinates. */
  @Column({ type: 'jsonb' })
  profile!: ReportedProfileSnapshot;

  /** The profile aggregate version last applied. */
  @Column({ type: 'int', default: 0 })
  version!: number;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

/** One pair of members, `memberA < memberB`, id `pairIdOf(a, b)`: the aggregate of the pair events. */
@Entity({ name: 'pair' })
export class Pair {
  @PrimaryColumn({ name: 'pair_id', type: 'text' })
  pairId!: string;

  @Column({ name: 'member_a', type: 'uuid' })
  memberA!: string;

  @Column({ name: 'member_b', type: 'uuid' })
  memberB!: string;

  /** Who of the two blocks the other (ascending); empty when neither does. */
  @Column({ name: 'blocked_by', type: 'uuid', array: true, default: () => `'{}'` })
  blockedBy!: string[];

  /** The current match (match.created), null when there is none or it ended. */
  @Column({ name: 'match_id', type: 'uuid', nullable: true })
  matchId!: string | null;

  @Column({ name: 'matched_at', type: 'timestamptz', nullable: true })
  matchedAt!: Date | null;

  @Column({ name: 'ended_match_id', type: 'uuid', nullable: true })
  endedMatchId!: string | null;

  /** The last block or unmatch: a match.created from before it resurrects nothing. */
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;

  /** Who ended the pair's match by the newest unmatch, and when (migration 1796100000000). */
  @Column({ name: 'unmatched_by', type: 'uuid', nullable: true })
  unmatchedBy!: string | null;

  @Column({ name: 'unmatched_at', type: 'timestamptz', nullable: true })
  unmatchedAt!: Date | null;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

@Entity({ name: 'block' })
export class Block {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'blocker_id', type: 'uuid' })
  blockerId!: string;

  @Column({ name: 'blocked_id', type: 'uuid' })
  blockedId!: string;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

export type ReportStatus = 'pending' | 'reviewed' | 'dismissed';
export type MessagesStatus = 'pending' | 'complete';
/** profile.updated's payload without latitude and longitude. */
export type ReportedProfileSnapshot = Record<string, unknown>;

/** A report, self-contained: it survives the reported member deleting their account or messages. */
@Entity({ name: 'report' })
export class Report {
  @PrimaryColumn({ type: 'uuid' })
  id!: string;

  @Column({ name: 'reporter_id', type: 'uuid' })
  reporterId!: string;

  @Column({ name: 'reported_id', type: 'uuid' })
  reportedId!: string;

  @Column({ type: 'text' })
  reason!: ReportReason;

  @Column({ type: 'text', nullable: true })
  details!: string | null;

  @Column({ type: 'text', default: 'pending' })
  status!: ReportStatus;

  @Column({ type: 'text', nullable: true })
  resolution!: string | null;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'reported_profile', type: 'jsonb', nullable: true })
  reportedProfile!: ReportedProfileSnapshot | null;

  /** The last messages between the two before the report, oldest first; null while pending. */
  @Column({ type: 'jsonb', nullable: true })
  messages!: PairMessageSnapshot[] | null;

  @Column({ name: 'messages_status', type: 'text' })
  messagesStatus!: MessagesStatus;

  @Column({ name: 'messages_captured_at', type: 'timestamptz', nullable: true })
  messagesCapturedAt!: Date | null;
}

export const SAFETY_ENTITIES = [SafetyMember, Pair, Block, Report];
