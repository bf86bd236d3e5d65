/**
 * Every request the population makes, with its time: HTTP through the gateway (status, 0 for a
 * network error) and socket requests (ok, a refusal, or unavailable: a timeout or
 * SERVICE_UNAVAILABLE). The fault report counts them against the kill windows.
 */

export type Outcome = 'ok' | 'refused' | 'unavailable';

export interface RequestRecord {
  kind: 'http' | 'socket';
  /** `GET /api/matches/suggestions`, `socket call:initiate`. */
  what: string;
  startedAt: number;
  endedAt: number;
  /** HTTP status; 0 for a network error; for a socket request 200 (ok), 400 (refused), 503 (unavailable). */
  status: number;
}

/** A request that failed on the server's side: a 5xx, a network error, or an unavailable socket request. */
export const isServerFailure = (r: RequestRecord) => r.status === 0 || r.status >= 500;

/** Path without ids or query, so records group by route. */
function routeOf(url: string): string {
  const { pathname } = new URL(url);
  return pathname.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, ':id');
}

export class Traffic {
  readonly records: RequestRecord[] = [];
  /** Requests answered since the last reading (the soak's rate). */
  private answered = 0;

  /** A `fetch` that records each call; the typed API client and the scripted calls both use it. */
  readonly fetch: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET');
    const record: RequestRecord = { kind: 'http', what: `${method} ${routeOf(url)}`, startedAt: Date.now(), endedAt: 0, status: 0 };
    try {
      const res = await fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(20_000) });
      record.status = res.status;
      return res;
    } finally {
      record.endedAt = Date.now();
      this.records.push(record);
      this.answered++;
    }
  };

  /** Records one socket request's outcome. */
  socket(event: string, startedAt: number, outcome: Outcome): void {
    const status = outcome === 'ok' ? 200 : outcome === 'refused' ? 400 : 503;
    this.records.push({ kind: 'socket', what: `socket ${event}`, startedAt, endedAt: Date.now(), status });
    this.answered++;
  }

  takeAnswered(): number {
    const n = this.answered;
    this.answered = 0;
    return n;
  }
}
