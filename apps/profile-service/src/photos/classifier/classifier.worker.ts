import { parentPort } from 'node:worker_threads';
import { classifyPixels, loadModel } from './classifier-model';
import type { ClassifierReply, ClassifierRequest } from './classifier-protocol';

// The classifier's worker thread (started by NsfwPhotoClassifier): loads the model as soon as it
// starts, then answers one request at a time. Requests with pixels are classified; without, they
// only wait for the model (warm-up).

const port = parentPort;
if (!port) throw new Error('classifier.worker runs in a worker thread only');

// Starts the load at once; a failed load is retried (and reported) by the first request.
loadModel().catch(() => undefined);

port.on('message', (request: ClassifierRequest) => {
  void (async () => {
    let reply: ClassifierReply;
    try {
      reply = request.pixels
        ? { id: request.id, predictions: await classifyPixels(request.pixels, request.classes) }
        : (await loadModel(), { id: request.id, predictions: [] });
    } catch (e) {
      reply = { id: request.id, error: e instanceof Error ? e.message : String(e) };
    }
    port.postMessage(reply);
  })();
});
