import { Injectable } from '@nestjs/common';
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
 * Finds the call core's ActiveCalls wherever the call feature registers it (resolved on first use,
 * so the two features do not import each other). Without one, nobody is in a call.
 */
@Injectable()
export class ActiveCallsLookup implements ActiveCalls {
  private resolved?: ActiveCalls | null;

  constructor(private readonly moduleRef: ModuleRef) {}

  private source(): ActiveCalls | null {
    if (this.resolved === undefined) {
      try {
        this.resolved = this.moduleRef.get<ActiveCalls>(ACTIVE_CALLS, { strict: false });
      } catch {
        this.resolved = null;
      }
    }
    return this.resolved;
  }

  async activeAnsweredCallOf(userId: string): Promise<AnsweredCall | null> {
    return (await this.source()?.activeAnsweredCallOf(userId)) ?? null;
  }
}
