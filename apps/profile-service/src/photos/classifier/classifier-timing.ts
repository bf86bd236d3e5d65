import sharp from 'sharp';
import { NsfwPhotoClassifier } from './photo-classifier';

export interface ClassifierTiming {
  /** Starting a classifier's worker and loading its model, once. */
  loadMs: number;
  /** One photo after that: sharp's decode to 224 × 224 RGB, then the inference in the worker. */
  msPerPhoto: number;
  runs: number;
}

/** A stored 600 px photo's shape and weight: a landscape WebP, like the upload pipeline's medium size. */
function samplePhoto(): Promise<Buffer> {
  const scene =
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="450"><circle cx="420" cy="120" r="60" fill="#fff4b0"/><rect y="300" width="600" height="150" fill="#3f6b3a"/></svg>';
  return sharp({ create: { width: 600, height: 450, channels: 3, background: { r: 90, g: 150, b: 200 } } })
    .composite([{ input: Buffer.from(scene) }])
    .webp()
    .toBuffer();
}

/**
 * What the classifier every photo is scored by (issue 13) costs on this machine, with a classifier
 * of its own (not the service's, which may be scoring): its load, then `runs` photos one after the
 * other after a first one (the photos bench runs it as `node main.js time-classifier`).
 */
export async function timeClassifier(runs: number): Promise<ClassifierTiming> {
  const classifier = new NsfwPhotoClassifier();
  try {
    const t0 = performance.now();
    await classifier.warmUp();
    const loadMs = Math.round(performance.now() - t0);
    const photo = await samplePhoto();
    await classifier.score(photo);
    const t1 = performance.now();
    for (let i = 0; i < runs; i++) await classifier.score(photo);
    return { loadMs, msPerPhoto: Math.round(((performance.now() - t1) / runs) * 10) / 10, runs };
  } finally {
    await classifier.onApplicationShutdown();
  }
}
