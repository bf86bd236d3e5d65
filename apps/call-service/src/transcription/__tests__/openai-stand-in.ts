import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  path: string;
  authorization?: string;
  contentType?: string;
  body: Buffer;
}

/**
 * A STAND-IN for an outside boundary: a local HTTP server speaking the OpenAI-compatible
 * transcription API (`GET /v1/models`, `POST /v1/audio/transcriptions` → `{ text }`), in place of
 * OpenAI, a whisper.cpp server or a faster-whisper server. Tests set what it answers.
 */
export class OpenAiCompatibleStandIn {
  readonly requests: StandInRequest[] = [];
  /** Status of `GET /v1/models`. */
  healthStatus = 200;
  /** What `POST /v1/audio/transcriptions` answers. */
  transcription: { status: number; body: unknown } = { status: 200, body: { text: 'hello' } };
  /** Never answer a transcription (timeouts). */
  hang = false;
  private server?: Server;
  url = '';

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  transcriptions(): StandInRequest[] {
    return this.requests.filter((r) => r.path === '/v1/audio/transcriptions');
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = (req.url ?? '').split('?')[0];
    this.requests.push({
      method: req.method ?? '',
      path,
      authorization: req.headers.authorization,
      contentType: req.headers['content-type'],
      body: Buffer.concat(chunks),
    });
    if (req.method === 'GET' && path === '/v1/models') {
      res.writeHead(this.healthStatus, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ object: 'list', data: [{ id: 'whisper-1', object: 'model' }] }));
    }
    if (req.method === 'POST' && path === '/v1/audio/transcriptions') {
      if (this.hang) return; // answered never; the client's timeout ends it
      res.writeHead(this.transcription.status, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(this.transcription.body));
    }
    res.writeHead(404).end();
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A minimal standalone webm head: EBML header with DocType `webm`, then `extra` bytes of payload. */
export function webmChunk(totalBytes = 256): Buffer {
  const header = Buffer.from([
    0x1a,
    0x45,
    0xdf,
    0xa3,
    0x9f, // EBML, size 31
    0x42,
    0x86,
    0x81,
    0x01, // EBMLVersion 1
    0x42,
    0xf7,
    0x81,
    0x01, // EBMLReadVersion 1
    0x42,
    0xf2,
    0x81,
    0x04, // EBMLMaxIDLength 4
    0x42,
    0xf3,
    0x81,
    0x08, // EBMLMaxSizeLength 8
    0x42,
    0x82,
    0x84,
    0x77,
    0x65,
    0x62,
    0x6d, // DocType "webm"
    0x42,
    0x87,
    0x81,
    0x04, // DocTypeVersion 4
    0x42,
    0x85,
    0x81,
    0x02, // DocTypeReadVersion 2
  ]);
  const out = Buffer.alloc(Math.max(totalBytes, header.length), 0x00);
  header.copy(out);
  return out;
}
