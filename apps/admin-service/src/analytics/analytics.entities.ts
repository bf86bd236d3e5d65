import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';

/** The analytics event store's tables and their migrations, oldest first. */
export const ANALYTICS_ENTITIES: Type<unknown>[] = [];
export const ANALYTICS_MIGRATIONS: Type<MigrationInterface>[] = [];
