// A STAND-IN for an outside boundary: the speech-to-text backend call-service sends subtitle audio
// to (OpenAI, a whisper.cpp server, a faster-whisper server). It speaks the same OpenAI-compatible
// API on 127.0.0.1 — `GET /v1/models`, `POST /v1/audio/transcriptions` (multipart `file`, `model`)
// → `{ text }` — and answers every well-formed chunk with one fixed sentence, so a journey can look
// for that sentence as a subtitle. It checks what a real backend would need (a non-empty webm file,
// a model) and counts what it got: `GET /stats` → `{ text, transcriptions, rejected, lastError }`.
// apps/e2e/run.mjs starts it before the platform and hands call-service its URL (TRANSCRIBE_URL).
import { createServer } from 'node:http';

/** What every transcription says. */
export const STAND_IN_SENTENCE = 'Hello from the stand-in transcriber.';
/** The EBML magic number every webm file starts with. */
const WEBM_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/** The parts of a multipart/form-data body: name → { filename, data }. */
function multipartParts(body, contentType) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts = new Map();
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const headStart = start + delimiter.length + 2; // past CRLF
    const next = body.indexOf(delimiter, headStart);
    if (next === -1) break;
    const headEnd = body.indexOf('\r\n\r\n', headStart);
    if (headEnd === -1 || headEnd > next) break;
    const head = body.subarray(headStart, headEnd).toString('utf8');
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    const filename = /filename="([^"]*)"/i.exec(head)?.[1];
    // The part's data ends before the CRLF that precedes the next delimiter.
    if (name) parts.set(name, { filename, data: body.subarray(headEnd + 4, next - 2) });
    start = next;
  }
  return parts;
}

/** Why a transcription request is one a real backend would refuse, or null. */
function problemWith(parts) {
  if (!parts) return 'not multipart/form-data';
  const file = parts.get('file');
  if (!file || file.data.length === 0) return 'no file, or an empty one';
  if (!file.data.subarray(0, 4).equals(WEBM_MAGIC)) return 'the file is not webm (no EBML header)';
  if (!parts.get('model')?.data.length) return 'no model';
  return null;
}

/** Starts the stand-in on a free port of 127.0.0.1. */
export async function startTranscriberStandIn() {
  const stats = { text: STAND_IN_SENTENCE, transcriptions: 0, rejected: 0, lastError: null };
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const path = (req.url ?? '').split('?')[0];
    const json = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && path === '/v1/models') {
      return json(200, { object: 'list', data: [{ id: 'whisper-1', object: 'model' }] });
    }
    if (req.method === 'POST' && path === '/v1/audio/transcriptions') {
      const problem = problemWith(multipartParts(Buffer.concat(chunks), req.headers['content-type']));
      if (problem) {
        stats.rejected++;
        stats.lastError = problem;
        return json(400, { error: { message: problem, type: 'invalid_request_error' } });
      }
      stats.transcriptions++;
      return json(200, { text: STAND_IN_SENTENCE });
    }
    if (req.method === 'GET' && path === '/stats') return json(200, stats);
    json(404, { error: { message: 'not found' } });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
