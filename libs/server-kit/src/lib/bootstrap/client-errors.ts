import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { EdgeMessages, ErrorCode } from '@mate/contracts';

export const ClientErrorMessages = {
  badRequest: 'Bad request',
  headersTooLarge: 'Request headers are too large',
  /** The gateway's words for its own 408 (a body past its deadline). */
  timeout: EdgeMessages.requestTimeout,
  chunkExtensionsTooLarge: 'Request chunk extensions are too large',
  expectation: 'Unsupported Expect header: only 100-continue is understood',
} as const;

/** Node's own statuses for the parser's refusals, with our `{ error, code }` body. */
function answerFor(code: string | undefined): { status: number; error: string; errorCode: ErrorCode } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, error: ClientErrorMessages.headersTooLarge, errorCode: ErrorCode.ValidationFailed };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, error: ClientErrorMessages.chunkExtensionsTooLarge, errorCode: ErrorCode.PayloadTooLarge };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, error: ClientErrorMessages.timeout, errorCode: ErrorCode.RequestTimeout };
    default:
      return { status: 400, error: ClientErrorMessages.badRequest, errorCode: ErrorCode.ValidationFailed };
  }
}

/** The raw response written for a parser refusal (no request object exists to answer through). */
export function clientErrorResponse(code: string | undefined): string {
  const { status, error, errorCode } = answerFor(code);
  const body = JSON.stringify({ error, code: errorCode });
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

interface ParserSocket extends Duplex {
  /** The response in flight on this connection, if any (Node's own check before it answers). */
  _httpMessage?: { headersSent?: boolean } | null;
}

/**
 * Answers what Node's HTTP parser refuses (a bad method, Content-Length with Transfer-Encoding,
 * a malformed or oversized header, a header timeout) with the JSON `{ error }` body every other
 * refusal has, instead of Node's empty one; then closes the connection, as Node does. Like Node,
 * it writes nothing when a response is already under way on the connection, which would corrupt it.
 */
export function installClientErrorHandler(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: ParserSocket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    // Closed once written (not only half-closed): a client that never ends its side holds nothing.
    socket.end(clientErrorResponse(err.code), () => socket.destroy());
  });
}

/**
 * An `Expect` other than 100-continue, which Node answers 417 with an empty body unless the
 * server listens for it: the same 417 with the JSON body (no route runs, as with Node's own).
 */
export function installExpectationHandler(server: Server): void {
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const body = JSON.stringify({ error: ClientErrorMessages.expectation, code: ErrorCode.ValidationFailed });
    res.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    res.end(body);
  });
}
