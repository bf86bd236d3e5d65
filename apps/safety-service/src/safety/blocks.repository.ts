import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** A block as it was stored. */
export interface BlockRow {
  id: string;
  created_at: Date;
}

/** A block in the blocker's list, with the blocked member as the pair showed them when it became blocked. */
export interface BlockListRow extends BlockRow {
  blocked_id: string;
  name: string | null;
  profile_picture: string | null;
}

const INSERT_BLOCK = `INSERT INTO block (id, blocker_id, blocked_id, reason, created_at) VALUES (gen_random_uuid(), $1, $2, $3, $4)
         ON CONFLICT (blocker_id, blocked_id) DO NOTHING RETURNING id, created_at`;

const BLOCK_OF_PAIR = 'SELECT id, created_at FROM block WHERE blocker_id = $1 AND blocked_id = $2';

const BLOCK_EXISTS = 'SELECT 1 FROM block WHERE blocker_id = $1 AND blocked_id = $2';

const DELETE_BLOCK = 'DELETE FROM block WHERE blocker_id = $1 AND blocked_id = $2 RETURNING id';

const BLOCKS_OF_MEMBER = `SELECT b.id, b.blocked_id, b.created_at,
              p.shown -> b.blocked_id::text ->> 'name' AS name, p.shown -> b.blocked_id::text ->> 'photo' AS profile_picture
         FROM block b
         LEFT JOIN pair p ON p.pair_id = least(b.blocker_id, b.blocked_id)::text || ':' || greatest(b.blocker_id, b.blocked_id)::text
        WHERE b.blocker_id = $1
        ORDER BY b.created_at DESC, b.id DESC
        LIMIT $2`;

const ERASE_MEMBER_BLOCKS = 'DELETE FROM block WHERE blocker_id = $1::uuid OR blocked_id = $1::uuid';

const BLOCKS_MADE_BY = 'SELECT blocked_id, created_at FROM block WHERE blocker_id = $1 ORDER BY created_at DESC, id DESC';

/** The `block` table: who blocks whom. Callers hold the pair's row lock while they change a block. */
@Injectable()
export class BlocksRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The new block, or null when the blocker already blocks the member (nothing written). */
  async insert(manager: EntityManager, blockerId: string, blockedId: string, reason: string | null, at: Date): Promise<BlockRow | null> {
    const inserted: BlockRow[] = await manager.query(INSERT_BLOCK, [blockerId, blockedId, reason, at]);
    return inserted[0] ?? null;
  }

  /** The blocker's block of the member (callers know it exists). */
  async find(manager: EntityManager, blockerId: string, blockedId: string): Promise<BlockRow> {
    const [existing]: BlockRow[] = await manager.query(BLOCK_OF_PAIR, [blockerId, blockedId]);
    return existing;
  }

  async exists(blockerId: string, blockedId: string): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(BLOCK_EXISTS, [blockerId, blockedId]);
    return rows.length > 0;
  }

  /** Deletes the blocker's block of the member; false when there was none. */
  async delete(manager: EntityManager, blockerId: string, blockedId: string): Promise<boolean> {
    // TypeORM answers a DELETE with [rows, count].
    const [deleted]: [unknown[], number] = await manager.query(DELETE_BLOCK, [blockerId, blockedId]);
    return deleted.length > 0;
  }

  /** Every block the member made, newest first (their data export). */
  madeBy(blockerId: string): Promise<{ blocked_id: string; created_at: Date }[]> {
    return this.dataSource.query(BLOCKS_MADE_BY, [blockerId]);
  }

  /** The blocker's blocks, newest first, at most `limit`. */
  listOf(blockerId: string, limit: number): Promise<BlockListRow[]> {
    return this.dataSource.query(BLOCKS_OF_MEMBER, [blockerId, limit]);
  }

  /** Deletes the blocks by and of the member (their erasure). */
  async eraseMember(manager: EntityManager, userId: string): Promise<void> {
    await manager.query(ERASE_MEMBER_BLOCKS, [userId]);
  }
}
