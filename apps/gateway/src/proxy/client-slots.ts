/**
 * Requests in flight per client address on this replica, capped. Each request holds one slot
 * from its arrival at the edge until its answer is finished or its connection closes, so one
 * address cannot pile up stalled requests (slow bodies, slow reads) against everybody else.
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

  /** Requests the address has in flight now. */
  held(address: string): number {
    return this.inFlight.get(address) ?? 0;
  }
}
