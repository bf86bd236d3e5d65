import net from 'node:net';
import Redis from 'ioredis';
import { ErrorCode, INTERNAL_TOKEN_HEADER } from '@mate/contracts';
import { viaGateway } from '../../../testing/forwarded';
import { startServiceTestBed, type ServiceTestBed } from '../../../testing/service-test-bed';
import { INTERNAL_ONLY_MESSAGE } from '../internal-trust';
import { PROBE_SIGN_INS_PER_MINUTE, probeService } from './probe-service';

/**
 * Starting a service (a database, migrations, Nest, a port) and closing it take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(30_000);

const INTERNAL_TOKEN = 'internal-trust-test-credential-0123456789';
const PEER = /^(::ffff:)?127\.0\.0\.1$/;

interface ProbeAnswer {
  ip: string;
  protocol: string;
  headers: Record<string, string>;
}

/**
 * Issue 7 item 3: a service is reachable directly, so before this a caller on the machine or the
 * cluster network chose the address its per-address limits counted (`X-Forwarded-For: 9.9.9.9`).
 */
describe('who a service believes about where a request came from (real PostgreSQL and Redis)', () => {
  let bed: ServiceTestBed;
  let redis: Redis;

  beforeAll(async () => {
    bed = await startServiceTestBed(probeService, { label: 'internal_trust', env: { INTERNAL_TOKEN } });
    redis = new Redis(bed.env.REDIS_URL);
  });

  afterAll(async () => {
    redis?.disconnect();
    await bed?.close();
  });

  const signIn = (headers: Record<string, string>) =>
    bed.call<ProbeAnswer>('POST', '/api/probe/sign-in', { body: { email: 'someone@example.com' }, headers });
  const limitKeys = async () => (await redis.keys(`${bed.env.KEY_PREFIX}:rl:signIn:*`)).sort();

  it('counts a direct caller with a forged X-Forwarded-For under its real address, and runs out its allowance', async () => {
    const forged = ['9.9.9.9', '9.9.9.10', '10.0.0.7', '203.0.113.1'];
    const answers = [];
    for (const address of forged) {
      answers.push(await signIn({ 'x-forwarded-for': address, 'x-forwarded-proto': 'https', forwarded: `for=${address}` }));
    }
    for (const answer of answers.slice(0, PROBE_SIGN_INS_PER_MINUTE)) {
      expect(answer.status).toBe(200);
      expect(answer.body.ip).toMatch(PEER);
      expect(answer.body.protocol).toBe('http');
      expect(answer.body.headers).not.toHaveProperty('x-forwarded-for');
      expect(answer.body.headers).not.toHaveProperty('forwarded');
    }
    // A fresh forged address per attempt bought nothing: the real peer's allowance ran out.
    expect(answers[PROBE_SIGN_INS_PER_MINUTE]).toMatchObject({ status: 429, body: { code: ErrorCode.RateLimited } });
    const keys = await limitKeys();
    expect(keys.some((k) => k.includes('9.9.9'))).toBe(false);
    expect(keys.some((k) => PEER.test(k.slice(k.lastIndexOf(':signIn:') + ':signIn:'.length)))).toBe(true);
  });

  it('treats a wrong credential as none: the attempt is counted against the real peer, whose allowance is spent', async () => {
    const res = await signIn({ 'x-forwarded-for': '198.51.100.20', [INTERNAL_TOKEN_HEADER]: `${INTERNAL_TOKEN}x` });
    expect(res).toMatchObject({ status: 429, body: { code: ErrorCode.RateLimited } });
    expect((await limitKeys()).some((k) => k.endsWith(':198.51.100.20'))).toBe(false);
  });

  it('believes X-Forwarded-For from the gateway (the credential), and no handler sees the credential', async () => {
    const res = await signIn({ 'x-forwarded-for': '9.9.9.9', 'x-forwarded-proto': 'https', [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN });
    expect(res).toMatchObject({ status: 200, body: { ip: '9.9.9.9', protocol: 'https' } });
    expect(res.body.headers).not.toHaveProperty(INTERNAL_TOKEN_HEADER);
    expect(await limitKeys()).toContain(`${bed.env.KEY_PREFIX}:rl:signIn:9.9.9.9`);
    // The test helper other suites use to play the gateway.
    expect((await signIn(viaGateway('203.0.113.50', bed.env))).body.ip).toBe('203.0.113.50');
  });

  it('refuses the internal route to a caller without the credential, even with a live session', async () => {
    const member = await bed.signIn();
    for (const path of [
      '/internal/socket-events/typing',
      '/INTERNAL/socket-events/typing',
      '//internal/socket-events/typing',
      '/%69nternal/socket-events/typing',
      '/internal/socket-events/typing/',
    ]) {
      const res = await bed.call('POST', path, { token: member.token, body: { recipientId: member.userId } });
      expect({ path, status: res.status, body: res.body }).toMatchObject({
        path,
        status: 403,
        body: { error: INTERNAL_ONLY_MESSAGE, code: ErrorCode.Forbidden },
      });
    }
    const wrong = await bed.call('POST', '/internal/socket-events/typing', {
      token: member.token,
      body: {},
      headers: { [INTERNAL_TOKEN_HEADER]: 'not-the-credential-at-all' },
    });
    expect(wrong.status).toBe(403);
  });

  it('serves the internal route to the gateway (the credential and a live session)', async () => {
    const member = await bed.signIn();
    // notification-service owns no socket events: reaching the registry is answered 404 by it.
    const res = await bed.call('POST', '/internal/socket-events/typing', {
      token: member.token,
      body: {},
      headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
    });
    expect(res).toMatchObject({ status: 404, body: { code: ErrorCode.NotFound } });
  });
});

describe('the edge (the gateway is built with the same configureHttp)', () => {
  let bed: ServiceTestBed;

  beforeAll(async () => {
    bed = await startServiceTestBed(probeService, {
      label: 'internal_trust_edge',
      env: { INTERNAL_TOKEN, TRUST_PROXY: 'loopback' },
      http: { edge: true },
    });
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('keeps TRUST_PROXY meaning X-Forwarded-For (its ingress), drops a client-sent credential and never opens /internal', async () => {
    const res = await bed.call<ProbeAnswer>('POST', '/api/probe/sign-in', {
      body: { email: 'someone@example.com' },
      headers: { 'x-forwarded-for': '192.0.2.44', [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
    });
    expect(res).toMatchObject({ status: 200, body: { ip: '192.0.2.44' } });
    expect(res.body.headers).not.toHaveProperty(INTERNAL_TOKEN_HEADER);
    const member = await bed.signIn();
    const internal = await bed.call('POST', '/internal/socket-events/typing', {
      token: member.token,
      body: {},
      headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
    });
    expect(internal).toMatchObject({ status: 403, body: { error: INTERNAL_ONLY_MESSAGE } });
  });

  it("answers Node's parser refusals with the JSON body too (the gateway's server is made the same way)", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(bed.url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (c) => (text += c.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
      socket.write('POST /api/probe/sign-in HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n');
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toBe(JSON.stringify({ error: 'Bad request', code: ErrorCode.ValidationFailed }));
  });
});
