import type { IncomingMessage } from 'node:http';

/** How reading a whole request body ended. */
export type BodyRead =
  | { outcome: 'complete'; body: Buffer }
  | { outcome: 'tooLarge' }
  | { outcome: 'timeout' }
  /** The replica's buffer budget ran out while a chunked body grew. */
  | { outcome: 'busy' }
  | { outcome: 'aborted' };

/** A claim on the replica's buffer budget: grows by `reserve`, given back once by `release`. */
export interface BufferLease {
  /** Claims `bytes` more; false (and nothing claimed) when the budget has no room. */
  reserve(bytes: number): boolean;
  release(): void;
}

/**
 * Bytes of ordinary bodies held in memory at the edge on this replica, capped. Each body claims
 * its declared length before it is read (a chunked one, each piece as it comes), and gives it
 * back once it has been handed to the service or its exchange ended. Together with the body
 * limit, the per-address cap and the body deadline, it bounds what slow or large bodies can make
 * the gateway hold, whatever number of addresses they come from.
 */
export class BodyBuffers {
  private used = 0;

  constructor(private readonly max: number) {}

  lease(): BufferLease {
    let held = 0;
    return {
      reserve: (bytes) => {
        if (this.used + bytes > this.max) return false;
        this.used += bytes;
        held += bytes;
        return true;
      },
      release: () => {
        this.used -= held;
        held = 0;
      },
    };
  }

  /** Bytes claimed now. */
  inUse(): number {
    return this.used;
  }
}

/** Whether a request carries a body: a declared length over 0, or a chunked one. */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return length !== undefined ? Number(length) > 0 : req.headers['transfer-encoding'] !== undefined;
}

/** Whether a request carries a body the gateway has not fully received yet. */
export function bodyPending(req: IncomingMessage): boolean {
  return !req.complete && hasBody(req);
}

/**
 * Reads a whole request body into memory, at most `limit` bytes, within `timeoutMs`; with a
 * `lease`, each piece is claimed from it as it comes (a body without a declared length). Never
 * rejects: the outcome says what happened. On 'tooLarge', 'timeout' and 'busy' the rest of the
 * body is left unread; the caller answers with `Connection: close`.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number, lease?: BufferLease): Promise<BodyRead> {
  if (req.destroyed) return Promise.resolve({ outcome: 'aborted' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (read: BodyRead) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onAborted);
      if (read.outcome !== 'complete') req.pause();
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish({ outcome: 'tooLarge' });
      else if (lease && !lease.reserve(chunk.length)) finish({ outcome: 'busy' });
      else chunks.push(chunk);
    };
    const onEnd = () => finish({ outcome: 'complete', body: Buffer.concat(chunks, size) });
    // The client went away before its body was complete ('close' also follows a normal end,
    // which has settled the read by then).
    const onAborted = () => finish({ outcome: 'aborted' });
    const timer = setTimeout(() => finish({ outcome: 'timeout' }), Math.max(0, timeoutMs));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onAborted);
    req.once('close', onAborted);
  });
}
