import { issueSession } from '@mate/server-kit/testing';
import { rawExchange, requestHead, startEdgeGateway, type EdgeGateway } from './edge-test-kit';

/**
 * Review round 3, item 2: an upload must keep up UPLOAD_MIN_BYTES_PER_SECOND once its grace is
 * over, but the time its service spends not reading it (backpressure) is not the client's: a fast
 * client in front of a busy service is never cut for being slow.
 *
 * High test numbers so that the service's pause is what would make the upload "slow": 1 MB/s after
 * 500 ms of grace, so after a 6 s pause 5.5 MB would be owed, more than the connections' buffers take
 * in before the gateway has to stop reading.
 */
const JWT_SECRET = 'gateway-upload-backpressure-secret-0123456789';
const BASE_MS = 500;
const BYTES_PER_SECOND = 1_000_000;
const SERVICE_PAUSE_MS = 6000;
const SIZE = 10 * 1024 * 1024;

jest.setTimeout(30_000);

describe('gateway: upload progress and backpressure', () => {
  let edge: EdgeGateway;

  beforeAll(async () => {
    edge = await startEdgeGateway('gateway-upload-backpressure', JWT_SECRET, {
      UPLOAD_BODY_BASE_MS: String(BASE_MS),
      UPLOAD_MIN_BYTES_PER_SECOND: String(BYTES_PER_SECOND),
      UPLOAD_IDLE_TIMEOUT_MS: '800',
    });
  });

  afterAll(async () => {
    await edge?.close();
  });

  it('does not count the time the service does not read against the client', async () => {
    const { authorization } = await issueSession(edge.sessions, JWT_SECRET);
    const exchange = rawExchange(edge.url, {
      head: requestHead(edge.url, 'POST', '/api/profile/me/photos', {
        Authorization: authorization,
        'Content-Type': 'application/octet-stream',
        'Content-Length': SIZE,
        'X-Read-After-Ms': SERVICE_PAUSE_MS,
        Connection: 'close',
      }),
      body: 'u'.repeat(SIZE),
    });
    const answer = await exchange.answer;
    expect(answer.status).toBe(200);
    expect((answer.body as { body: string }).body).toHaveLength(SIZE);
  });
});
