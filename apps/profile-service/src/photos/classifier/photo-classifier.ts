import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { OnApplicationShutdown } from '@nestjs/common';
import sharp from 'sharp';
import { PHOTO_CLASSES, type PhotoClass, type PhotoScores } from '@mate/contracts';
import type { ClassifierReply, ClassifierRequest } from './classifier-protocol';

/** MobileNetV2's input: a 224 × 224 RGB square. */
export const CLASSIFIER_INPUT_SIZE = 224;

/** Scores one image; the production one is nsfwjs on tfjs's wasm backend (issue 13). */
export interface PhotoClassifier {
  score(image: Buffer): Promise<PhotoScores>;
}
export const PHOTO_CLASSIFIER = Symbol('PHOTO_CLASSIFIER');

/** How long one request may take in the worker, the model's load included, before the worker is replaced. */
export const CLASSIFIER_TIMEOUT_MS = 60_000;

/** Raw RGB at the model's input size (the whole picture squeezed into the square, as nsfwjs does). */
export async function decodeForClassifier(image: Buffer): Promise<Uint8Array> {
  const { data } = await sharp(image, { failOn: 'none' })
    .rotate()
    .resize(CLASSIFIER_INPUT_SIZE, CLASSIFIER_INPUT_SIZE, { fit: 'fill' })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * The worker thread: the compiled `classifier.worker.js` beside this file in the build (tsc emits it
 * with the rest of the app), or from the TypeScript source (jest, @swc-node/register) the `.ts` file,
 * which the thread transpiles through @swc-node/register as the service's own source runs.
 */
function startWorker(): Worker {
  const ext = extname(__filename);
  const file = join(__dirname, `classifier.worker${ext}`);
  if (ext !== '.ts') return new Worker(file);
  const project = process.env['SWC_NODE_PROJECT'] ?? join(__dirname, '../../../../../tsconfig.base.json');
  const bootstrap = `const load = require('node:module').createRequire(${JSON.stringify(file)});
load('@swc-node/register');
load(${JSON.stringify(file)});`;
  return new Worker(bootstrap, { eval: true, env: { ...process.env, SWC_NODE_PROJECT: project } });
}

interface Pending {
  id: number;
  worker: Worker;
  resolve: (reply: ClassifierReply & { error?: undefined }) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface NsfwPhotoClassifierOptions {
  /** Per request, the model's load included (default CLASSIFIER_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * nsfwjs (MobileNetV2, the model in its npm package) on @tensorflow/tfjs's wasm backend, in a worker
 * thread of its own, so that neither the model's load (1–2 s) nor an inference (100–200 ms) holds
 * up the service's event loop (HTTP, other jobs). Scores are the five classes' probabilities.
 *
 * - One worker per classifier (one classifier per process), started on first use: commands and test
 *   beds that never score a photo never load tfjs or the model; the first scan waits for the load
 *   in the worker, off the main thread.
 * - One request at a time (the wasm backend runs on one thread, so queueing costs nothing and
 *   bounds the memory). sharp decodes on the main thread (it works on libuv's thread pool, not on
 *   the event loop); the raw pixels are transferred to the worker, not copied.
 * - A worker that crashes, exits or takes longer than the timeout fails the request in flight (the
 *   photo-scan job is retried) and is replaced by a new one on the next call.
 * - Application shutdown terminates the worker; calls after it reject.
 */
export class NsfwPhotoClassifier implements PhotoClassifier, OnApplicationShutdown {
  private worker: Worker | undefined;
  private pending: Pending | undefined;
  private nextId = 1;
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: NsfwPhotoClassifierOptions = {}) {}

  /** Starts the worker and waits for its model (otherwise the first score does). */
  async warmUp(): Promise<void> {
    await this.serially(() => this.request(undefined));
  }

  score(image: Buffer): Promise<PhotoScores> {
    return this.serially(async () => {
      const pixels = await decodeForClassifier(image);
      const { predictions } = await this.request(pixels);
      const scores = Object.fromEntries(PHOTO_CLASSES.map((c) => [c, 0])) as Record<PhotoClass, number>;
      for (const p of predictions) {
        if ((PHOTO_CLASSES as readonly string[]).includes(p.className)) scores[p.className as PhotoClass] = p.probability;
      }
      return scores;
    });
  }

  /** The worker's thread id while one runs (logs, tests). */
  get workerThreadId(): number | undefined {
    return this.worker?.threadId;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.fail(worker, new Error('the photo classifier was shut down'));
    await worker?.terminate();
  }

  private serially<T>(run: () => Promise<T>): Promise<T> {
    const next = this.tail.then(run);
    this.tail = next.catch(() => undefined);
    return next;
  }

  private request(pixels: Uint8Array | undefined): Promise<ClassifierReply & { error?: undefined }> {
    if (this.closed) return Promise.reject(new Error('the photo classifier was shut down'));
    const worker = (this.worker ??= this.spawn());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timeoutMs = this.options.timeoutMs ?? CLASSIFIER_TIMEOUT_MS;
      const timer = setTimeout(() => {
        // A worker that does not answer is not trusted with the next photo either.
        if (this.worker === worker) this.worker = undefined;
        this.fail(worker, new Error(`the photo classifier did not answer within ${timeoutMs} ms`));
        void worker.terminate();
      }, timeoutMs);
      this.pending = { id, worker, resolve, reject, timer };
      worker.ref();
      // A copy of the pixels of its own (sharp's buffer may share memory), moved to the worker.
      const own = pixels?.slice();
      const message: ClassifierRequest = { id, pixels: own, classes: PHOTO_CLASSES.length };
      worker.postMessage(message, own ? [own.buffer] : []);
    });
  }

  private spawn(): Worker {
    const worker = startWorker();
    worker.unref();
    worker.on('message', (reply: ClassifierReply) => {
      const pending = this.pending;
      if (!pending || pending.worker !== worker || pending.id !== reply.id) return;
      this.settle();
      if (reply.error !== undefined) pending.reject(new Error(`the photo classifier failed: ${reply.error}`));
      else pending.resolve(reply);
    });
    worker.on('error', (e) => this.lost(worker, e));
    worker.on('exit', (code) => this.lost(worker, new Error(`its worker exited with code ${code}`)));
    return worker;
  }

  /** The worker crashed or exited: the request in flight fails; the next call starts a new worker. */
  private lost(worker: Worker, cause: Error): void {
    if (this.worker === worker) this.worker = undefined;
    this.fail(worker, new Error(`the photo classifier stopped: ${cause.message}`));
  }

  private fail(worker: Worker | undefined, error: Error): void {
    const pending = this.pending;
    if (!pending || pending.worker !== worker) return;
    this.settle();
    pending.reject(error);
  }

  private settle(): void {
    const pending = this.pending;
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending = undefined;
    // Idle, the worker does not keep the process alive (a classifier nobody shut down).
    pending.worker.unref();
  }
}
