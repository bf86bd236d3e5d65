import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';

/** The member's call that has been answered and not ended, as call-service's call core knows it. */
export interface AnsweredCall {
  callId: string;
  /** The other member of the call. */
  peerId: string;
}

/**
 * What transcription asks the call core (provided by the call feature under ACTIVE_CALLS):
 * audio is transcribed only for a member in an answered, not yet ended call.
 */
export interface ActiveCalls {
  activeAnsweredCallOf(userId: string): Promise<AnsweredCall | null>;
}

export const ACTIVE_CALLS = Symbol('ACTIVE_CALLS');

/**
 * The call core's ActiveCalls, wherever the call feature registers it (found once the modules are
 * built, so the two features do not import each other). Missing is a wiring mistake: start-up fails.
 */
@Injectable()
export class ActiveCallsLookup implements ActiveCalls, OnModuleInit {
  private source?: ActiveCalls;

  constructor(private readonly moduleRef: ModuleRef) {}

  onModuleInit() {
    this.source = this.moduleRef.get<ActiveCalls>(ACTIVE_CALLS, { strict: false });
  }

  async activeAnsweredCallOf(userId: string): Promise<AnsweredCall | null> {
    if (!this.source) throw new Error('ActiveCalls is not registered (ACTIVE_CALLS)');
    return this.source.activeAnsweredCallOf(userId);
  }
}
