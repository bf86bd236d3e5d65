import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { NSFWJS } from 'nsfwjs';

// Runs inside the classifier's worker thread only (classifier.worker.ts): tfjs, its wasm backend and
// the model are never loaded on the service's main thread.

/** MobileNetV2's input: a 224 × 224 RGB square. */
export const MODEL_INPUT_SIZE = 224;

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

/** tfjs on its wasm backend, set up once per thread. */
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

/** The model, loaded once per thread on first use; concurrent first calls share one load. */
export function loadModel(): Promise<NSFWJS> {
  modelReady ??= (async () => {
    await wasmBackend();
    const net = new NSFWJS(bundledModelHandler(), { size: MODEL_INPUT_SIZE });
    await net.load();
    return net;
  })().catch((e: unknown) => {
    modelReady = null;
    throw e;
  });
  return modelReady;
}

export interface Prediction {
  className: string;
  probability: number;
}

/** The model's classes for raw RGB pixels at its input size (MODEL_INPUT_SIZE², 3 channels). */
export async function classifyPixels(pixels: Uint8Array, classes: number): Promise<Prediction[]> {
  const expected = MODEL_INPUT_SIZE * MODEL_INPUT_SIZE * 3;
  if (pixels.byteLength !== expected) throw new Error(`expected ${expected} bytes of RGB, got ${pixels.byteLength}`);
  const net = await loadModel();
  const input = tf.tensor3d(pixels, [MODEL_INPUT_SIZE, MODEL_INPUT_SIZE, 3], 'int32');
  try {
    return (await net.classify(input, classes)).map((p) => ({ className: p.className, probability: p.probability }));
  } finally {
    input.dispose();
  }
}
