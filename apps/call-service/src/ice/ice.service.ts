import { Inject, Injectable } from '@nestjs/common';
import type { IceServerDto, IceServersDto } from '@mate/contracts';
import { CLOCK, SERVICE_ENV, type Clock } from '@mate/server-kit';
import type { IceEnv } from './ice.env';
import { splitUrls, turnCredentials } from './turn-credentials';

/** The ICE servers one member's call screen gets: STUN as configured, TURN with their own credentials. */
@Injectable()
export class IceService {
  private readonly stun: string[];
  private readonly turn: string[];

  constructor(
    @Inject(SERVICE_ENV) private readonly env: IceEnv,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.stun = splitUrls(env.STUN_URLS);
    this.turn = splitUrls(env.TURN_URLS);
  }

  iceServersFor(userId: string): IceServersDto {
    const iceServers: IceServerDto[] = [];
    if (this.stun.length > 0) iceServers.push({ urls: this.stun });
    let expiresAt: string | null = null;
    if (this.turn.length > 0 && this.env.TURN_SECRET) {
      const creds = turnCredentials(
        this.env.TURN_SECRET,
        userId,
        this.clock.now(),
        this.env.TURN_TTL_SECONDS,
      );
      iceServers.push({ urls: this.turn, username: creds.username, credential: creds.credential });
      expiresAt = creds.expiresAt.toISOString();
    }
    return { iceServers, expiresAt };
  }
}
