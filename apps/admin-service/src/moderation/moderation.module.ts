import { Module } from '@nestjs/common';

/** Reports, users, photos, statistics, the audit log and the queue dashboard (spec 001 §7). */
@Module({})
export class ModerationModule {}
