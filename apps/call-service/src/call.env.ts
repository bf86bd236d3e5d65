import { IsInt, Max, Min } from 'class-validator';
import { CALL_DISCONNECT_GRACE_MS, CALL_RING_TIMEOUT_MS } from '@mate/contracts';
import { EnvNumber } from '@mate/server-kit';
import { TranscriptionEnv } from './transcription/transcription.env';

/** Settings of call-service on top of the shared ones (PORT, DATABASE_URL, REDIS_URL, ...). */
export class CallEnv extends TranscriptionEnv {
  /** call:initiate one member may send in a minute, across devices and replicas (429 past it). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CALL_CALLS_PER_MINUTE = 20;

  /** call:signal one member may send in 10 seconds (an offer, an answer and trickled ICE candidates). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CALL_SIGNALS_PER_10_SECONDS = 300;

  /** subtitle events one member may send in 10 seconds (one per 3 s chunk; room for two devices). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  CALL_SUBTITLES_PER_10_SECONDS = 20;

  /** A call not answered within this time becomes missed (issue 11: 30 s). */
  @EnvNumber()
  @IsInt()
  @Min(1_000)
  CALL_RING_TIMEOUT_MS = CALL_RING_TIMEOUT_MS;

  /** A member whose sockets are all gone longer than this ends their active call (issue 11: 15 s). */
  @EnvNumber()
  @IsInt()
  @Min(1_000)
  CALL_DISCONNECT_GRACE_MS = CALL_DISCONNECT_GRACE_MS;

  /**
   * How often each replica with WORKERS=on sweeps active calls for ring timeouts and disconnected
   * members; 0 turns the timer off (tests call the sweeper themselves with a manual clock).
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(60_000)
  CALL_SWEEP_INTERVAL_MS = 1_000;
}
