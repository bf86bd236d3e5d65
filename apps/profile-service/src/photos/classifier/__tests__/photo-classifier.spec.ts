import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId, Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { PHOTO_CLASSES, photoRisk } from '@mate/contracts';
import { NsfwPhotoClassifier } from '../photo-classifier';

/** A plain landscape (sky, sun, hills, lake), drawn like the seeder's artwork: nothing to flag. */
function landscapeSvg(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5fa8e8"/><stop offset="1" stop-color="#cfe8ff"/></linearGradient>
      <linearGradient id="lake" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#3b7bb5"/><stop offset="1" stop-color="#1d4e7a"/></linearGradient>
    </defs>
    <rect width="800" height="600" fill="url(#sky)"/>
    <circle cx="620" cy="120" r="50" fill="#fff4b0"/>
    <path d="M0,360 L140,220 L260,330 L400,180 L560,340 L680,240 L800,330 L800,420 L0,420 Z" fill="#6b7f5a"/>
    <path d="M0,400 Q200,330 400,390 T800,380 L800,440 L0,440 Z" fill="#3f6b3a"/>
    <rect y="430" width="800" height="170" fill="url(#lake)"/>
    <path d="M60,470 L140,470 M300,520 L420,520 M560,490 L700,490" stroke="#a9d0f0" stroke-width="4"/>
  </svg>`;
}

describe('NsfwPhotoClassifier (nsfwjs MobileNetV2 on tfjs wasm, offline)', () => {
  const classifier = new NsfwPhotoClassifier();
  let landscape: Buffer;

  afterAll(() => classifier.onApplicationShutdown());

  beforeAll(async () => {
    landscape = await sharp(Buffer.from(landscapeSvg())).webp().toBuffer();
    await classifier.warmUp();
  }, 60_000);

  it('scores every class, the scores sum to 1, and a plain landscape is low risk', async () => {
    const scores = await classifier.score(landscape);
    expect(Object.keys(scores).sort()).toEqual([...PHOTO_CLASSES].sort());
    for (const c of PHOTO_CLASSES) {
      expect(scores[c]).toBeGreaterThanOrEqual(0);
      expect(scores[c]).toBeLessThanOrEqual(1);
    }
    const sum = PHOTO_CLASSES.reduce((s, c) => s + scores[c], 0);
    expect(sum).toBeCloseTo(1, 3);
    expect(photoRisk(scores)).toBeLessThan(0.3);
  });

  it('gives the same scores to the same picture, and scores concurrent calls one after another', async () => {
    const [a, b, c] = await Promise.all([landscape, landscape, landscape].map((img) => classifier.score(img)));
    for (const cls of PHOTO_CLASSES) {
      expect(b[cls]).toBeCloseTo(a[cls], 5);
      expect(c[cls]).toBeCloseTo(a[cls], 5);
    }
  });

  it('takes well under a second a photo once loaded', async () => {
    const runs = 10;
    const started = performance.now();
    for (let i = 0; i < runs; i++) await classifier.score(landscape);
    const perPhoto = (performance.now() - started) / runs;
    // Measured about 60 ms here; the bound only catches a backend that fell back to something slow.
    expect(perPhoto).toBeLessThan(1000);
  });

  it('refuses what is not an image', async () => {
    await expect(classifier.score(Buffer.from('not an image'))).rejects.toThrow();
  });

  describe('in a worker thread of its own', () => {
    afterEach(() => jest.restoreAllMocks());

    it('loads and runs the model only in its worker thread', () => {
      // tfjs and nsfwjs hold the event loop for 60–210 ms a call: no module the main thread loads
      // may import them, or the model file that does. Only the worker's entry point does.
      const dir = join(__dirname, '..');
      const importers = readdirSync(dir)
        .filter((file) => file.endsWith('.ts'))
        .filter((file) => /from '(@tensorflow\/|nsfwjs|\.\/classifier-model)/.test(readFileSync(join(dir, file), 'utf8')));
      expect(importers.sort()).toEqual(['classifier-model.ts', 'classifier.worker.ts']);
    });

    it('keeps the event loop turning while the model loads and while it classifies', async () => {
      const fresh = new NsfwPhotoClassifier();
      let ticks = 0;
      const ticker = setInterval(() => ticks++, 10);
      const started = performance.now();
      try {
        await fresh.warmUp();
        expect(fresh.workerThreadId).toBeGreaterThan(threadId);
        for (let i = 0; i < 10; i++) await fresh.score(landscape);
      } finally {
        clearInterval(ticker);
        await fresh.onApplicationShutdown();
      }
      const elapsed = performance.now() - started;
      // A 10 ms ticker keeps ticking. Its longest gap is no test here: on this 2-core machine it
      // was 17–33 ms quiet, and 82–439 ms with the e2e stage running beside (load average 22),
      // from the scheduler, not the model; 57–77 % of the ticks came even then.
      expect(ticks).toBeGreaterThan(elapsed / 10 / 3);
    }, 60_000);

    it('terminates its worker on application shutdown, and refuses to score after', async () => {
      const fresh = new NsfwPhotoClassifier();
      await fresh.warmUp();
      expect(fresh.workerThreadId).toEqual(expect.any(Number));
      const terminate = jest.spyOn(Worker.prototype, 'terminate');
      await fresh.onApplicationShutdown();
      expect(terminate).toHaveBeenCalledTimes(1);
      await expect(terminate.mock.results[0]?.value).resolves.toEqual(expect.any(Number));
      expect(fresh.workerThreadId).toBeUndefined();
      await expect(fresh.score(landscape)).rejects.toThrow('the photo classifier was shut down');
    }, 60_000);

    it('fails the photo in flight when its worker dies, and starts a new worker for the next', async () => {
      const fresh = new NsfwPhotoClassifier();
      try {
        await fresh.warmUp();
        const first = fresh.workerThreadId;
        const post = Worker.prototype.postMessage;
        // The worker dies right after it is handed a photo, before it can answer.
        jest.spyOn(Worker.prototype, 'postMessage').mockImplementationOnce(function (this: Worker, ...args) {
          post.apply(this, args);
          void this.terminate();
        });
        await expect(fresh.score(landscape)).rejects.toThrow('the photo classifier stopped');
        const scores = await fresh.score(landscape);
        expect(photoRisk(scores)).toBeLessThan(0.3);
        expect(fresh.workerThreadId).toEqual(expect.any(Number));
        expect(fresh.workerThreadId).not.toBe(first);
      } finally {
        await fresh.onApplicationShutdown();
      }
    }, 60_000);

    it('gives up on a worker that does not answer in time', async () => {
      const impatient = new NsfwPhotoClassifier({ timeoutMs: 1 });
      try {
        await expect(impatient.warmUp()).rejects.toThrow('did not answer within 1 ms');
        expect(impatient.workerThreadId).toBeUndefined();
      } finally {
        await impatient.onApplicationShutdown();
      }
    });
  });
});
