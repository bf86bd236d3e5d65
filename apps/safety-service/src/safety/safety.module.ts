import { Module } from '@nestjs/common';
import { pairGateProvider, ServiceClient } from '@mate/server-kit';
import { BlocksRepository } from './blocks.repository';
import { BlocksService } from './blocks.service';
import { EvidenceWorker } from './evidence.worker';
import { MatchFromGate } from './match-from-gate';
import { MembersRepository } from './members.repository';
import { PairsRepository } from './pairs.repository';
import { ReportEvidence } from './report-evidence';
import { ReportsRepository } from './reports.repository';
import { ReportsService } from './reports.service';
import { SafetyController } from './safety.controller';
import { SafetyRateLimiter } from './safety-rate-limits';
import { UnmatchService } from './unmatch.service';
import { SafetyMemberErasure } from '../member-data/safety-member-erasure';

/** Safety: blocks, reports and unmatch, told to every service through the pair events. */
@Module({
  controllers: [SafetyController],
  providers: [
    MembersRepository,
    PairsRepository,
    BlocksRepository,
    BlocksService,
    ReportsRepository,
    ReportsService,
    UnmatchService,
    MatchFromGate,
    ReportEvidence,
    EvidenceWorker,
    SafetyRateLimiter,
    ServiceClient,
    SafetyMemberErasure,
    pairGateProvider,
  ],
  exports: [MembersRepository, PairsRepository, BlocksRepository, ReportsRepository, SafetyMemberErasure],
})
export class SafetyModule {}
