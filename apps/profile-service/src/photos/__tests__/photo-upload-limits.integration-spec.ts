import http from 'node:http';
import sharp from 'sharp';
import request from 'supertest';
import { MAX_PHOTOS, ProfileMessages, type PhotoUploadResponse } from '@mate/contracts';
import type { Request } from 'express';
import { JwtStrategy, type RateLimits } from '@mate/server-kit';
import { startProfileTestBed, waitFor, type ProfileTestBed } from '../../__tests__/test-app';
import { ProfileEnv } from '../../profile.env';
import { ImageProcessor } from '../image-processor';
import { PhotoProcessingQueue } from '../photo-processing-queue';
import { PHOTO_FILE_CACHE_CONTROL } from '../storage/photo-storage';
import {
  PHOTO_UPLOAD_LIMITER,
  PHOTO_UPLOAD_RATE_LIMITS,
  type PhotoUploadRateLimit,
} from '../upload-rate-limits';

jest.setTimeout(120_000);

type Member = Awaited<ReturnType<ProfileTestBed['member']>>;

/** One colour compresses to almost nothing as PNG: a tiny file that decodes to width × height pixels. */
const flatPng = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .png({ compressionLevel: 9 })
    .toBuffer();

const NOT_AN_IMAGE = Buffer.from('not a picture at all\n'.repeat(10));

/**
 * Issue 7 item 8 (uploads are expensive) and item 9 (photo files cached for a year), against
 * profile-service on real PostgreSQL and Redis, with a processing slot of one and a queue of two
 * so the bound is observable.
 */
describe('photo uploads: rate, pixel ceiling, processing bound, file caching', () => {
  let bed: ProfileTestBed;
  let server: ReturnType<ProfileTestBed['app']['getHttpServer']>;
  let processor: ImageProcessor;
  let queue: PhotoProcessingQueue;

  beforeAll(async () => {
    bed = await startProfileTestBed('photo-limits', {
      PHOTO_PROCESSING_CONCURRENCY: '1',
      PHOTO_PROCESSING_QUEUE: '2',
    });
    server = bed.app.getHttpServer();
    processor = bed.app.get(ImageProcessor);
    queue = bed.app.get(PhotoProcessingQueue);
  });

  afterEach(() => jest.restoreAllMocks());

  afterAll(async () => {
    await bed?.close();
  });

  function upload(member: Member, body: Buffer, route = '/api/photos/upload') {
    return request(server)
      .post(route)
      .set('Authorization', member.authorization)
      .attach('photo', body, { filename: 'photo.png', contentType: 'image/png' });
  }

  /**
   * An upload whose body never finishes: the multipart head of a 5 MB file, then nothing. Resolves
   * with the answer, which can only come from a server that did not wait for the body.
   */
  function stalledUpload(member: Member): Promise<{ status: number; body: unknown; retryAfter?: string }> {
    const boundary = 'mate-stalled-upload';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
    return new Promise((resolve, reject) => {
      const req = http.request(`${bed.url}/api/photos/upload`, {
        method: 'POST',
        headers: {
          Authorization: member.authorization,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(head.length + 5 * 1024 * 1024),
        },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          req.destroy();
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString()),
            retryAfter: res.headers['retry-after'],
          });
        });
      });
      req.on('error', reject);
      req.write(head);
    });
  }

  interface SlowUpload {
    /** The answer, once one comes; `answered` says whether it has. */
    response: Promise<{ status: number; body: { error?: string }; retryAfter?: string }>;
    answered: () => boolean;
    /** Sends the rest of the body. */
    finish: () => void;
    /** The client goes away mid-body. */
    abort: () => void;
  }

  /**
   * An upload whose body comes slowly: the multipart head and the first half of `picture` now, the
   * rest only on `finish()`. Uploads started together so overlap for as long as the test wants.
   */
  function slowUpload(member: Member, picture: Buffer): SlowUpload {
    const boundary = 'mate-slow-upload';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const half = Math.floor(picture.length / 2);
    const req = http.request(`${bed.url}/api/photos/upload`, {
      method: 'POST',
      headers: {
        Authorization: member.authorization,
        'Content-Type': `multipart/form-data; boundary=${boundary}`,
        'Content-Length': String(head.length + picture.length + tail.length),
      },
    });
    let answered = false;
    const response = new Promise<Awaited<SlowUpload['response']>>((resolve, reject) => {
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          answered = true;
          resolve({
            status: res.statusCode ?? 0,
            body: JSON.parse(Buffer.concat(chunks).toString()),
            retryAfter: res.headers['retry-after'],
          });
        });
      });
      req.on('error', reject);
    });
    req.write(Buffer.concat([head, picture.subarray(0, half)]));
    return {
      response,
      answered: () => answered,
      finish: () => req.end(Buffer.concat([picture.subarray(half), tail])),
      abort: () => {
        response.catch(() => undefined);
        req.destroy();
      },
    };
  }

  /** Counts calls of the real image processor (the expensive part) without changing it. */
  function countProcessing() {
    return jest.spyOn(processor, 'process');
  }

  describe('per-member upload rate', () => {
    const burst = PHOTO_UPLOAD_RATE_LIMITS.uploadBurst.points;

    it(`refuses the ${burst + 1}th upload of a minute with 429 and Retry-After, before reading or processing it; other members are unaffected`, async () => {
      const attacker = await bed.member();
      // Refused uploads count too: what costs is receiving and decoding, not keeping.
      for (let i = 0; i < burst; i++) {
        const res = await upload(attacker, NOT_AN_IMAGE);
        expect(res.status).toBe(400);
      }
      const processing = countProcessing();
      const refused = await upload(attacker, await flatPng(640, 480));
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: ProfileMessages.tooManyUploads, code: 'RATE_LIMITED' });
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const onboarding = await upload(
        attacker,
        await flatPng(640, 480),
        '/api/profile/me/photos/upload?context=onboarding',
      );
      expect(onboarding.status).toBe(429);
      // Refused before its body is read: a body that never arrives is answered all the same.
      const stalled = await stalledUpload(attacker);
      expect(stalled).toMatchObject({ status: 429, body: { error: ProfileMessages.tooManyUploads } });
      expect(Number(stalled.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(processing).not.toHaveBeenCalled();

      const other = await bed.member();
      const ok = await upload(other, await flatPng(640, 480));
      expect(ok.status).toBe(201);
      expect(processing).toHaveBeenCalledTimes(1);
    });

    it('lets onboarding fill all six photo slots in a minute, with room for a few refused files', async () => {
      const member = await bed.member();
      const picture = await flatPng(800, 600);
      for (let i = 0; i < burst - MAX_PHOTOS; i++) {
        expect((await upload(member, NOT_AN_IMAGE, '/api/photos/upload?context=onboarding')).status).toBe(
          400,
        );
      }
      for (let i = 0; i < MAX_PHOTOS; i++) {
        expect((await upload(member, picture, '/api/photos/upload?context=onboarding')).status).toBe(201);
      }
    });

    it('refuses past the hourly allowance, for about the rest of the hour', async () => {
      const member = await bed.member();
      const limits = bed.app.get<RateLimits<PhotoUploadRateLimit>>(PHOTO_UPLOAD_LIMITER);
      // Twenty uploads spread over the last hour, as the limiter counted them.
      for (let i = 0; i < PHOTO_UPLOAD_RATE_LIMITS.uploadHourly.points; i++)
        await limits.consume('uploadHourly', member.userId);
      const res = await upload(member, await flatPng(640, 480));
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ error: ProfileMessages.tooManyUploads });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(60);
    });
  });

  describe('pixel ceiling', () => {
    it('is 25 megapixels by default: the 7070 × 7070 PNG of the review and anything above 25 MP are refused, 25 MP is accepted', async () => {
      expect(bed.app.get(ProfileEnv).PHOTO_MAX_INPUT_PIXELS).toBe(25_000_000);
      const member = await bed.member();

      const review = await flatPng(7070, 7070);
      expect(review.length).toBeLessThan(300_000);
      const bomb = await upload(member, review);
      expect(bomb.status).toBe(400);
      expect(bomb.body).toMatchObject({ error: ProfileMessages.imageTooLargeToProcess });

      const justAbove = await upload(member, await flatPng(5000, 5001));
      expect(justAbove.status).toBe(400);
      expect(justAbove.body).toMatchObject({ error: ProfileMessages.imageTooLargeToProcess });

      const atCeiling = await upload(member, await flatPng(5000, 5000));
      expect(atCeiling.status).toBe(201);
      expect((atCeiling.body as PhotoUploadResponse).photo.isPrimary).toBe(true);
    });
  });

  describe('processing bound (PHOTO_PROCESSING_CONCURRENCY=1, PHOTO_PROCESSING_QUEUE=2)', () => {
    it('processes one upload at a time, queues two, and answers 503 with Retry-After past that without reading or processing the extra one', async () => {
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      let active = 0;
      let peak = 0;
      const real = processor.process.bind(processor);
      const processing = jest.spyOn(processor, 'process').mockImplementation(async (bytes) => {
        peak = Math.max(peak, ++active);
        try {
          await gate;
          return await real(bytes);
        } finally {
          active--;
        }
      });

      const members = await Promise.all([bed.member(), bed.member(), bed.member(), bed.member()]);
      const picture = await flatPng(1600, 1200);
      // `.then` sends each request now (supertest waits for it), all three at once.
      const accepted = members.slice(0, 3).map((m) => upload(m, picture).then((res) => res));
      await waitFor(async () => queue.active === 1 && queue.waiting === 2, {
        what: 'one upload processing, two waiting',
      });

      const busy = await upload(members[3], picture);
      expect(busy.status).toBe(503);
      expect(busy.body).toMatchObject({ error: ProfileMessages.uploadsBusy, code: 'SERVICE_UNAVAILABLE' });
      expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const stalled = await stalledUpload(members[3]);
      expect(stalled).toMatchObject({ status: 503, body: { error: ProfileMessages.uploadsBusy } });

      open();
      expect((await Promise.all(accepted)).map((r) => r.status)).toEqual([201, 201, 201]);
      expect(processing).toHaveBeenCalledTimes(3);
      expect(peak).toBe(1);
      expect({ active: queue.active, waiting: queue.waiting }).toEqual({ active: 0, waiting: 0 });

      // The member refused for a full queue was not charged: the upload goes through now.
      const retried = await upload(members[3], picture);
      expect(retried.status).toBe(201);
    });
  });

  describe('admission before the body (review round 2 of item 8)', () => {
    const capacity = 3; // PHOTO_PROCESSING_CONCURRENCY=1 + PHOTO_PROCESSING_QUEUE=2
    const extra = 2;

    it(`of ${capacity + extra} slow uploads at once, exactly ${extra} get 503 before their body is read and the other ${capacity} succeed; at most ${capacity} bodies are held`, async () => {
      const processing = countProcessing();
      const picture = await flatPng(1600, 1200);
      const members = await Promise.all(Array.from({ length: capacity + extra }, () => bed.member()));
      const uploads = members.map((m) => slowUpload(m, picture));

      // Every body is half sent; the refusals come now, the admitted ones keep waiting for theirs.
      await waitFor(async () => uploads.filter((u) => u.answered()).length === extra, {
        what: `${extra} uploads answered while every body is still incomplete`,
      });
      expect(queue.admitted).toBe(capacity);
      const refused = uploads.filter((u) => u.answered());
      for (const u of refused) {
        const answer = await u.response;
        expect(answer).toMatchObject({ status: 503, body: { error: ProfileMessages.uploadsBusy } });
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        u.abort();
      }
      expect(processing).not.toHaveBeenCalled();

      const admitted = uploads.filter((u) => !u.answered());
      expect(admitted).toHaveLength(capacity);
      for (const u of admitted) u.finish();
      const answers = await Promise.all(admitted.map((u) => u.response));
      expect(answers.map((a) => a.status)).toEqual(Array(capacity).fill(201));
      expect(processing).toHaveBeenCalledTimes(capacity);
      await waitFor(async () => queue.admitted === 0, { what: 'every ticket released' });
    });

    it('releases the tickets of uploads whose client goes away mid-body, so the process takes uploads again', async () => {
      const picture = await flatPng(1600, 1200);
      const members = await Promise.all(Array.from({ length: capacity }, () => bed.member()));
      const uploads = members.map((m) => slowUpload(m, picture));
      await waitFor(async () => queue.admitted === capacity, {
        what: 'the process full of half-sent uploads',
      });
      expect((await upload(await bed.member(), picture)).status).toBe(503);

      for (const u of uploads) u.abort();
      await waitFor(async () => queue.admitted === 0, { what: "the aborted uploads' tickets released" });
      expect({ active: queue.active, waiting: queue.waiting }).toEqual({ active: 0, waiting: 0 });
      expect((await upload(await bed.member(), picture)).status).toBe(201);
    });

    it('releases, exactly once, the tickets of uploads whose client goes away while the service awaits Redis (before multer reads the body): neither the member nor the process is locked out (review round 3)', async () => {
      const limits = bed.app.get<RateLimits<PhotoUploadRateLimit>>(PHOTO_UPLOAD_LIMITER);
      const picture = await flatPng(1600, 1200);
      const [member, other, newcomer] = await Promise.all([bed.member(), bed.member(), bed.member()]);
      const gated = new Set([member.userId, other.userId]);
      // A test seam on the real Redis rate check: these two members' checks wait until the test
      // opens the gate, as a slow Redis would; the check itself still runs against Redis.
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const real = limits.consume.bind(limits);
      const checks: Promise<unknown>[] = [];
      jest.spyOn(limits, 'consume').mockImplementation((...args: Parameters<typeof limits.consume>) => {
        if (!gated.has(args[1])) return real(...args);
        const check = gate.then(() => real(...args));
        checks.push(check.catch(() => undefined));
        return check;
      });
      const processing = countProcessing();

      // The member's two allowed uploads and one of another member fill the process (3 tickets),
      // each with its head and half its body sent, each stuck in the rate check.
      const uploads = [slowUpload(member, picture), slowUpload(member, picture), slowUpload(other, picture)];
      await waitFor(async () => queue.admitted === capacity && checks.length === capacity, {
        what: 'three uploads admitted and waiting for the rate check',
      });
      expect((await upload(newcomer, picture)).status).toBe(503);

      // Their clients go away (a phone dropping): the tickets come back without waiting for Redis.
      for (const u of uploads) u.abort();
      await waitFor(async () => queue.admitted === 0, {
        what: 'the tickets of the uploads gone during the rate check released',
      });
      expect(queue.admittedOf(member.userId)).toBe(0);

      // Redis answers only now; the service goes on to a request that is closed and must neither
      // hang in multer nor release the tickets a second time.
      open();
      await Promise.all(checks);
      await waitFor(async () => checks.length === 2 * capacity, {
        what: 'the hourly checks of the aborted uploads',
      });
      await Promise.all(checks);
      expect(queue.admitted).toBe(0);
      expect({ active: queue.active, waiting: queue.waiting }).toEqual({ active: 0, waiting: 0 });
      expect(processing).not.toHaveBeenCalled();

      // The member is not locked out (2 in flight would be 429), nor is anyone else (full would be 503).
      const again = [slowUpload(member, picture), slowUpload(member, picture)];
      await waitFor(async () => queue.admittedOf(member.userId) === 2, {
        what: "the member's two new uploads admitted",
      });
      expect((await upload(newcomer, picture)).status).toBe(201);
      for (const u of again) u.finish();
      expect((await Promise.all(again.map((u) => u.response))).map((a) => a.status)).toEqual([201, 201]);
      await waitFor(async () => queue.admitted === 0, { what: 'every ticket released' });
    });

    it('releases the tickets of uploads whose client went away during the session lookup, before the ticket was taken (review round 3)', async () => {
      const strategy = bed.app.get(JwtStrategy);
      const picture = await flatPng(1600, 1200);
      const member = await bed.member();
      // A test seam on the guard: this member's session lookups wait until the test opens the gate.
      let open!: () => void;
      const gate = new Promise<void>((resolve) => (open = resolve));
      const looking: Request[] = [];
      // Unbound: passport runs it on a per-request copy of the strategy that carries its callbacks.
      const real = Object.getPrototypeOf(strategy).authenticate as (req: Request, options: object) => void;
      jest.spyOn(strategy, 'authenticate').mockImplementation(function (
        this: JwtStrategy,
        req: Request,
        options,
      ) {
        if (req.headers.authorization !== member.authorization) return real.call(this, req, options);
        looking.push(req);
        void gate.then(() => real.call(this, req, options));
      });
      const admit = jest.spyOn(queue, 'admit');

      const uploads = [slowUpload(member, picture), slowUpload(member, picture)];
      await waitFor(async () => looking.length === 2, { what: 'both uploads in the session lookup' });
      for (const u of uploads) u.abort();
      await waitFor(async () => looking.every((req) => req.destroyed), {
        what: 'both requests closed on the server',
      });

      // The guard lets them through only now: each takes a ticket for a request already closed.
      open();
      await waitFor(async () => admit.mock.calls.filter(([id]) => id === member.userId).length === 2, {
        what: 'both closed uploads admitted',
      });
      await waitFor(async () => queue.admitted === 0, { what: 'the tickets of the closed uploads released' });

      // Two leaked tickets would lock the member out with 429.
      const again = [slowUpload(member, picture), slowUpload(member, picture)];
      await waitFor(async () => queue.admittedOf(member.userId) === 2, {
        what: "the member's two new uploads admitted",
      });
      for (const u of again) u.finish();
      expect((await Promise.all(again.map((u) => u.response))).map((a) => a.status)).toEqual([201, 201]);
      await waitFor(async () => queue.admitted === 0, { what: 'every ticket released' });
    });

    it('lets one member have 2 uploads in flight: their 3rd parallel upload gets 429, another member is still accepted', async () => {
      expect(bed.app.get(ProfileEnv).PHOTO_UPLOADS_PER_MEMBER_IN_FLIGHT).toBe(2);
      const picture = await flatPng(1600, 1200);
      const [greedy, other] = await Promise.all([bed.member(), bed.member()]);
      const own = [slowUpload(greedy, picture), slowUpload(greedy, picture)];
      await waitFor(async () => queue.admittedOf(greedy.userId) === 2, {
        what: "the member's two uploads admitted",
      });

      const third = await upload(greedy, picture);
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ error: ProfileMessages.tooManyUploads, code: 'RATE_LIMITED' });
      expect(Number(third.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // One slot of the process is still free, and it goes to someone else.
      expect((await upload(other, picture)).status).toBe(201);

      for (const u of own) u.finish();
      expect((await Promise.all(own.map((u) => u.response))).map((a) => a.status)).toEqual([201, 201]);
      await waitFor(async () => queue.admitted === 0, { what: 'every ticket released' });
    });
  });

  describe('photo files (item 9)', () => {
    /** As a browser or a shared cache asks (supertest adds no Cache-Control: no-cache, unlike fetch). */
    async function file(url: string, headers: Record<string, string> = {}) {
      const res = await request(server)
        .get(url)
        .set(headers)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        });
      return {
        res: {
          status: res.status,
          headers: { get: (name: string) => (res.headers[name] as string | undefined) ?? null },
        },
        body: res.body as Buffer,
      };
    }

    it('are cached for minutes, not a year, with nosniff and an ETag that revalidates to 304', async () => {
      const member = await bed.member();
      const { url } = (await upload(member, await flatPng(640, 480)).expect(201)).body as PhotoUploadResponse;
      const { res, body } = await file(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe(PHOTO_FILE_CACHE_CONTROL);
      expect(PHOTO_FILE_CACHE_CONTROL).toBe('public, max-age=300, must-revalidate');
      expect(res.headers.get('cache-control')).not.toMatch(/immutable|31536000/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(body.length).toBeGreaterThan(0);
      const etag = res.headers.get('etag');
      expect(etag).toMatch(/^"[0-9a-f-]{36}-large"$/);

      const revalidated = await file(url, { 'If-None-Match': etag ?? '' });
      expect(revalidated.res.status).toBe(304);
      expect(revalidated.body.length).toBe(0);
      expect(revalidated.res.headers.get('cache-control')).toBe(PHOTO_FILE_CACHE_CONTROL);
    });

    it('answer 404 at once after the photo is deleted or rejected, revalidations included, and the 404 is not stored', async () => {
      const member = await bed.member();
      const deleted = (await upload(member, await flatPng(640, 480)).expect(201)).body as PhotoUploadResponse;
      const rejected = (await upload(member, await flatPng(640, 480)).expect(201))
        .body as PhotoUploadResponse;
      const etags = new Map<string, string>();
      for (const { url } of [deleted, rejected]) {
        const { res } = await file(url);
        expect(res.status).toBe(200);
        etags.set(url, res.headers.get('etag') ?? '');
      }

      await request(server)
        .delete(`/api/photos/${deleted.photo.id}`)
        .set('Authorization', member.authorization)
        .expect(200);
      await bed.dataSource.query(
        "UPDATE photos SET moderation_status = 'rejected', moderated_at = now(), rejection_reason = 'x' WHERE id = $1",
        [rejected.photo.id],
      );

      for (const { url } of [deleted, rejected]) {
        const asked: Record<string, string>[] = [{}, { 'If-None-Match': etags.get(url) ?? '' }];
        for (const headers of asked) {
          const { res, body } = await file(url, headers);
          expect({ url, status: res.status }).toEqual({ url, status: 404 });
          expect(JSON.parse(body.toString())).toMatchObject({ error: ProfileMessages.photoNotFound });
          expect(res.headers.get('cache-control')).toBe('no-store');
          expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        }
      }
    });
  });
});
