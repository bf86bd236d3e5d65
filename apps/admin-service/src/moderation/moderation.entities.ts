import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';

/** The moderation side's tables (audit log, decisions) and their migrations, oldest first. */
export const MODERATION_ENTITIES: Type<unknown>[] = [];
export const MODERATION_MIGRATIONS: Type<MigrationInterface>[] = [];
