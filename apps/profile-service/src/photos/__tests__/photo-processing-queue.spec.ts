import { HttpStatus } from '@nestjs/common';
import { ProfileMessages } from '@mate/contracts';
import { PhotoProcessingQueue, UPLOADS_BUSY_RETRY_AFTER_SECONDS } from '../photo-processing-queue';

/** A unit of work that runs until the test lets it finish. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const queue = (concurrency: number, queueLimit: number, perMember = 2) =>
  new PhotoProcessingQueue({
    PHOTO_PROCESSING_CONCURRENCY: concurrency,
    PHOTO_PROCESSING_QUEUE: queueLimit,
    PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT: perMember,
  });

/** Lets every queued microtask run (the queue hands slots over in promise callbacks). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('PhotoProcessingQueue', () => {
  it('never runs more than its concurrency at once, and starts the waiting ones in order', async () => {
    const q = queue(2, 10);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const runs = gates.map((g, i) =>
      q.run(async () => {
        started.push(i);
        peak = Math.max(peak, ++running);
        await g.opened;
        running--;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect({ active: q.active, waiting: q.waiting }).toEqual({ active: 2, waiting: 3 });

    gates[1].open();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect({ active: q.active, waiting: q.waiting }).toEqual({ active: 0, waiting: 0 });
  });

  it('refuses run() with 503 and Retry-After when the queue is full, and frees a slot after a failure', async () => {
    const q = queue(1, 1);
    const first = gate();
    const running = q.run(() => first.opened);
    const waiting = q.run(() => Promise.resolve('second'));
    await settle();
    const refused = await q.run(() => Promise.resolve('third')).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      status: HttpStatus.SERVICE_UNAVAILABLE,
      retryAfterSeconds: UPLOADS_BUSY_RETRY_AFTER_SECONDS,
      response: { error: ProfileMessages.uploadsBusy, code: 'SERVICE_UNAVAILABLE' },
    });

    first.open();
    await running;
    expect(await waiting).toBe('second');
    await expect(q.run(() => Promise.reject(new Error('decoder failed')))).rejects.toThrow('decoder failed');
    expect(await q.run(() => Promise.resolve('after'))).toBe('after');
    expect({ active: q.active, waiting: q.waiting }).toEqual({ active: 0, waiting: 0 });
  });

  it('with no queue, refuses anything beyond the running ones', async () => {
    const q = queue(1, 0);
    const first = gate();
    const running = q.run(() => first.opened);
    await expect(q.run(() => Promise.resolve())).rejects.toMatchObject({
      status: HttpStatus.SERVICE_UNAVAILABLE,
    });
    first.open();
    await running;
    await expect(q.run(() => Promise.resolve('ok'))).resolves.toBe('ok');
  });

  describe('admission (tickets taken before an upload body is read)', () => {
    it('admits concurrency + queue uploads, then 503 with Retry-After; a released ticket makes room again', () => {
      const q = queue(1, 2, 10);
      const tickets = ['a', 'b', 'c'].map((member) => q.admit(member));
      expect(q.admitted).toBe(3);
      let refused: unknown;
      try {
        q.admit('d');
      } catch (e) {
        refused = e;
      }
      expect(refused).toMatchObject({
        status: HttpStatus.SERVICE_UNAVAILABLE,
        retryAfterSeconds: UPLOADS_BUSY_RETRY_AFTER_SECONDS,
        response: { error: ProfileMessages.uploadsBusy, code: 'SERVICE_UNAVAILABLE' },
      });
      tickets[1].release();
      tickets[1].release(); // a second release of the same ticket changes nothing
      expect(q.admitted).toBe(2);
      const d = q.admit('d');
      expect(() => q.admit('e')).toThrow(expect.objectContaining({ status: HttpStatus.SERVICE_UNAVAILABLE }));
      for (const t of [tickets[0], tickets[2], d]) t.release();
      expect(q.admitted).toBe(0);
    });

    it('gives one member at most PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT tickets (429), others still get theirs', () => {
      const q = queue(2, 8, 2);
      const own = [q.admit('greedy'), q.admit('greedy')];
      expect(() => q.admit('greedy')).toThrow(
        expect.objectContaining({
          status: HttpStatus.TOO_MANY_REQUESTS,
          retryAfterSeconds: UPLOADS_BUSY_RETRY_AFTER_SECONDS,
          response: expect.objectContaining({ error: ProfileMessages.tooManyUploads, code: 'RATE_LIMITED' }),
        }),
      );
      const other = q.admit('other');
      expect({ greedy: q.admittedOf('greedy'), other: q.admittedOf('other'), all: q.admitted }).toEqual({
        greedy: 2,
        other: 1,
        all: 3,
      });
      own[0].release();
      const again = q.admit('greedy');
      for (const t of [own[1], other, again]) t.release();
      expect({ greedy: q.admittedOf('greedy'), all: q.admitted }).toEqual({ greedy: 0, all: 0 });
    });
  });
});
