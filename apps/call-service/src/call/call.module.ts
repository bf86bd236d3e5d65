import { Module } from '@nestjs/common';
import { pairGateProvider, PresenceReader, RealtimeModule } from '@mate/server-kit';
import { CallController } from './call.controller';
import { CallEndedFacts } from './call-ended-facts';
import { CallNotifier } from './call-notifier';
import { CallRateLimiter } from './call-rate-limits';
import { CALL_PRESENCE } from './call-presence';
import { CallSocketEvents } from './call-socket-events';
import { CallSweeper } from './call-sweeper';
import { CallRepository } from './call.repository';
import { CallsService } from './calls.service';
import { MemberRepository } from './member.repository';
import { PairRepository } from './pair.repository';
import { ACTIVE_CALLS } from '../transcription/active-calls';
import { CallMemberErasure } from '../member-data/call-member-erasure';

/** Calls: signalling, call records, history and stats, and the ring and disconnect timers. */
@Module({
  imports: [RealtimeModule.forRoot()],
  controllers: [CallController],
  providers: [
    CallsService,
    CallEndedFacts,
    // Transcription asks whether a member is in an answered call (src/transcription/active-calls.ts).
    { provide: ACTIVE_CALLS, useExisting: CallsService },
    CallNotifier,
    CallRateLimiter,
    CallSocketEvents,
    CallSweeper,
    { provide: CALL_PRESENCE, useExisting: PresenceReader },
    CallMemberErasure,
    pairGateProvider,
    CallRepository,
    PairRepository,
    MemberRepository,
  ],
  exports: [
    CallNotifier,
    CallMemberErasure,
    CallEndedFacts,
    CallRepository,
    PairRepository,
    MemberRepository,
  ],
})
export class CallModule {}
