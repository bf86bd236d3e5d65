import type { IncomingMessage } from 'node:http';

/** How reading a whole request body ended. */
export type BodyRead =
  | { outcome: 'complete'; body: Buffer }
  | { outcome: 'tooLarge' }
  | { outcome: 'timeout' }
  | { outcome: 'aborted' };

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
 * Reads a whole request body into memory, at most `limit` bytes, within `timeoutMs`. Never
 * rejects: the outcome says what happened. On 'tooLarge' and 'timeout' the rest of the body is
 * left unread; the caller answers with `Connection: close`.
 */
export function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<BodyRead> {
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
