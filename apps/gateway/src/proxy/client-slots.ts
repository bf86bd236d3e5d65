import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Requests in flight per client address on this replica, capped. Each request holds one slot
 * from its arrival at the edge until its exchange is over (see `untilExchangeEnds`), so one
 * address cannot pile up stalled requests (slow bodies, slow reads) against everybody else.
 * The address is the rate-limit key (`rateLimitAddress`: an IPv6 client's whole /64).
 */
export class ClientSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** A release function (safe to call more than once) when the address is under its cap, else null. */
  take(address: string): (() => void) | null {
    const held = this.inFlight.get(address) ?? 0;
    if (held >= this.max) return null;
    this.inFlight.set(address, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(address) ?? 1) - 1;
      if (left > 0) this.inFlight.set(address, left);
      else this.inFlight.delete(address);
    };
  }

  /** Requests the address has in flight now: the test seam (client-slots.spec.ts), not used by the edge. */
  held(address: string): number {
    return this.inFlight.get(address) ?? 0;
  }
}

/**
 * Calls `release` once the exchange is over: the answer is done (or abandoned) AND the request
 * has ended or its connection closed. An answer given before the body came does not end the
 * exchange: until the rest of the body arrives or the connection closes, the client still holds
 * this replica's resources, so it keeps its slot.
 */
export function untilExchangeEnds(req: IncomingMessage, res: ServerResponse, release: () => void): void {
  res.once('close', () => {
    if (req.complete || req.socket.destroyed) return release();
    req.once('end', release);
    req.socket.once('close', release);
  });
}
