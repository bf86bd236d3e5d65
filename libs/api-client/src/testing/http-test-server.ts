import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Parsed JSON for JSON requests; the raw text otherwise (e.g. multipart uploads). */
  body: unknown;
  rawBody: Buffer;
}

export type Reply = (req: RecordedRequest, res: ServerResponse) => void;

/** A real HTTP server on a free port that records requests and answers with `reply`. */
export async function startTestServer(reply: Reply) {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const rawBody = Buffer.concat(chunks);
      const raw = rawBody.toString('utf8');
      const isJson = (req.headers['content-type'] ?? '').includes('application/json');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: raw ? (isJson ? (JSON.parse(raw) as unknown) : raw) : undefined,
        rawBody,
      };
      requests.push(recorded);
      reply(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, statusMessage?: string): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, statusMessage ?? '', { 'Content-Type': 'application/json' });
  res.end(payload);
}

/** A reply answering `body` as JSON with `status` (200 by default). */
export const ok =
  (body: unknown = { message: 'ok' }, status = 200): Reply =>
  (_req, res) =>
    json(res, status, body);

/** A reply refusing with `status` and `body` (an empty object by default: the client's fallback shows). */
export const fails =
  (status: number, body: unknown = {}): Reply =>
  (_req, res) =>
    json(res, status, body);
