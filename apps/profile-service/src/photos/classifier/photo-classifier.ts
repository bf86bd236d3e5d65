import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { NSFWJS } from 'nsfwjs';
import { PHOTO_CLASSES, type PhotoClass, type PhotoScores } from '@mate/contracts';

/** MobileNetV2's input: a 224 × 224 RGB square. */
export const CLASSIFIER_INPUT_SIZE = 224;

/** Scores one image; the production one is nsfwjs on tfjs's wasm backend (issue 13). */
export interface PhotoClassifier {
  score(image: Buffer): Promise<PhotoScores>;
}
export const PHOTO_CLASSIFIER = Symbol('PHOTO_CLASSIFIER');

// Loaded by path at run time: the model ships inside the nsfwjs package as two UMD bundles (the
// topology and the weights, base64), and the wasm binaries inside the backend's package. Nothing is
// fetched from the network.
const load = createRequire(__filename);
const modelDir = () => join(dirname(load.resolve('nsfwjs')), '..', 'models', 'mobilenet_v2');
const wasmDir = () => `${join(dirname(load.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist')}/`;

interface BundledModelJson {
  modelTopology: object;
  format?: string;
  generatedBy?: string;
  convertedBy?: string | null;
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
}

/** A tfjs IOHandler over the model bundled in the nsfwjs package, read from the file system. */
export function bundledModelHandler(dir = modelDir()): tf.io.IOHandler {
  return {
    load: async () => {
      const json = load(join(dir, 'model.min.js')) as BundledModelJson;
      const weightSpecs: tf.io.WeightsManifestEntry[] = [];
      const parts: Buffer[] = [];
      for (const group of json.weightsManifest) {
        for (const path of group.paths) {
          const base64 = load(join(dir, `${path}.min.js`)) as unknown;
          if (typeof base64 !== 'string') throw new Error(`the model's weight bundle ${path} is not there`);
          parts.push(Buffer.from(base64, 'base64'));
        }
        weightSpecs.push(...group.weights);
      }
      const weights = Buffer.concat(parts);
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy ?? undefined,
        weightSpecs,
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      };
    },
  };
}

let backendReady: Promise<void> | null = null;
let modelReady: Promise<NSFWJS> | null = null;

/** tfjs on its wasm backend, set up once per process. */
function wasmBackend(): Promise<void> {
  backendReady ??= (async () => {
    setWasmPaths(wasmDir());
    if (!(await tf.setBackend('wasm'))) throw new Error('the tfjs wasm backend did not start');
    await tf.ready();
  })().catch((e: unknown) => {
    backendReady = null;
    throw e;
  });
  return backendReady;
}

/** The model, loaded once per process on first use; concurrent first calls share one load. */
function model(): Promise<NSFWJS> {
  modelReady ??= (async () => {
    await wasmBackend();
    const net = new NSFWJS(bundledModelHandler(), { size: CLASSIFIER_INPUT_SIZE });
    await net.load();
    return net;
  })().catch((e: unknown) => {
    modelReady = null;
    throw e;
  });
  return modelReady;
}

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
 * nsfwjs (MobileNetV2, the model in its npm package) on @tensorflow/tfjs's wasm backend. Scores are
 * the five classes' probabilities; one inference at a time per process (the wasm backend runs on
 * one thread, so queueing them costs nothing and bounds the memory).
 */
export class NsfwPhotoClassifier implements PhotoClassifier {
  private tail: Promise<unknown> = Promise.resolve();

  /** Loads the model now (otherwise the first score does). */
  async warmUp(): Promise<void> {
    await model();
  }

  score(image: Buffer): Promise<PhotoScores> {
    const run = this.tail.then(() => this.scoreNow(image));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async scoreNow(image: Buffer): Promise<PhotoScores> {
    const pixels = await decodeForClassifier(image);
    const net = await model();
    const input = tf.tensor3d(pixels, [CLASSIFIER_INPUT_SIZE, CLASSIFIER_INPUT_SIZE, 3], 'int32');
    try {
      const predictions = await net.classify(input, PHOTO_CLASSES.length);
      const scores = Object.fromEntries(PHOTO_CLASSES.map((c) => [c, 0])) as Record<PhotoClass, number>;
      for (const p of predictions) {
        if ((PHOTO_CLASSES as readonly string[]).includes(p.className)) scores[p.className as PhotoClass] = p.probability;
      }
      return scores;
    } finally {
      input.dispose();
    }
  }
}
