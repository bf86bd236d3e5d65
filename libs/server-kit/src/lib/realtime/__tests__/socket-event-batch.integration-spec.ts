import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Module } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { IsString, IsUUID, MaxLength } from 'class-validator';
import Redis from 'ioredis';
import { AuthMessages, ErrorCode, INTERNAL_TOKEN_HEADER, SERVICES, SocketMessages, type AuthPrincipal } from '@mate/contracts';
import { startServiceTestBed, type ServiceTestBed } from '../../../testing/service-test-bed';
import { waitFor } from '../../../testing/service-app';
import { CountedPerMember, type PerMemberLimits } from '../../auth/decorators';
import { SessionStore, type WindowCount } from '../../auth/session-store';
import { badRequest } from '../../errors/app.exception';
import { RateLimits } from '../../rate-limit/rate-limit';
import { REDIS } from '../../redis/redis';
import { DatabaseEnv } from '../../config/config';
import { ServiceModule } from '../../service.module';
import { BodyErrorMessages } from '../../errors/error.filter';
import { RealtimeModule } from '../realtime.module';
import { PresenceReader } from '../presence-reader';
import { SOCKET_EVENT_BATCH_MAX, SOCKET_EVENTS_PATH, presenceField, presenceInstanceKey, presenceUserKey } from '../realtime.keys';
import { SocketEvent, type SocketEventBatchItem, type SocketEventBatchResult } from '../socket-event';

/**
 * Starting a service (a database, migrations, Nest, a port) and closing it take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(30_000);

const INTERNAL_TOKEN = 'socket-event-batch-test-credential-0123456789';

class SendDto {
  @IsUUID('4') recipientId!: string;
  @IsString() @MaxLength(100) content!: string;
}
class RecipientDto {
  @IsUUID('4') recipientId!: string;
}
/** mark_as_read's payload here: refused with its sender (not to oneself), as a field is. */
class OtherMemberDto {
  @IsUUID('4') recipientId!: string;
  refusalFor(sender: AuthPrincipal) {
    return this.recipientId === sender.userId ? badRequest('Not to yourself') : null;
  }
}

const SYNCS_ALLOWED = 2;
const TOO_MANY_SYNCS = 'Too many syncs';

/** A per-member limit for the counted event (sync_messages): SYNCS_ALLOWED a minute; a payload naming nobody counts nothing. */
@Injectable()
class EchoLimits implements PerMemberLimits {
  readonly limits: RateLimits<'syncs'>;
  constructor(@Inject(REDIS) redis: Redis) {
    this.limits = new RateLimits(redis, `echo-${randomUUID()}`, { syncs: { points: SYNCS_ALLOWED, durationSeconds: 60 } });
  }
  counters(_kind: string, userId: string, payload?: unknown) {
    return (payload as RecipientDto).recipientId === NOBODY ? [] : this.limits.allowanceCounters(['syncs'], userId);
  }
  refusal(_kind: string, counts: readonly WindowCount[]) {
    return this.limits.refusalOf(['syncs'], counts, TOO_MANY_SYNCS);
  }
}
const NOBODY = '00000000-0000-4000-8000-000000000000';

/** Handlers of chat's events that answer who sent them, so a test sees which principal each item ran as. */
@Injectable()
class EchoEvents {
  @SocketEvent('send_message') send(payload: SendDto, sender: AuthPrincipal) {
    if (payload.content === 'explode') throw new Error('database password is hunter2');
    return { from: sender.userId, session: sender.sessionId, to: payload.recipientId, content: payload.content };
  }
  @SocketEvent('typing') typing(_payload: RecipientDto) {
    return undefined;
  }
  @SocketEvent('stop_typing') stopTyping(_payload: RecipientDto) {
    return undefined;
  }
  @SocketEvent('mark_as_read') markAsRead(_payload: OtherMemberDto) {
    return undefined;
  }
  @SocketEvent('sync_messages')
  @CountedPerMember(EchoLimits, 'syncs')
  sync(_payload: RecipientDto) {
    return undefined;
  }
}
@Module({ providers: [EchoEvents, EchoLimits] })
class EchoModule {}

const echoService = (env?: Partial<Record<string, string>>) =>
  ServiceModule.forRoot({ service: SERVICES.chat, envClass: DatabaseEnv, env, entities: [], migrations: [], features: [EchoModule, RealtimeModule.forRoot()] });

/**
 * The gateway's batched delivery of socket events (docs/adr/0005-realtime.md, "Batching"): each
 * item is authenticated as the global guard authenticates a request and answered on its own.
 */
describe('socket event batches (real PostgreSQL and Redis)', () => {
  let bed: ServiceTestBed;
  let redis: Redis;

  beforeAll(async () => {
    bed = await startServiceTestBed(echoService, { label: 'socket_batch', env: { INTERNAL_TOKEN } });
    redis = new Redis(bed.env.REDIS_URL);
  });

  afterAll(async () => {
    redis?.disconnect();
    await bed?.close();
  });

  const batch = (items: SocketEventBatchItem[] | unknown, headers: Record<string, string> = { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN }) =>
    bed.call<{ results: SocketEventBatchResult[]; error?: string }>('POST', SOCKET_EVENTS_PATH, { body: { items }, headers });
  const send = (token: string, payload: unknown, requestId?: string): SocketEventBatchItem => ({
    event: 'send_message',
    token,
    requestId,
    payload: JSON.stringify(payload),
  });
  const message = (content = 'hello') => ({ recipientId: randomUUID(), content });

  it('runs each item as its own sender (a batch mixing members) and answers in order', async () => {
    const ann = await bed.signIn();
    const bob = await bed.signIn();
    const res = await batch([send(ann.token, message('one')), send(bob.token, message('two')), send(ann.token, message('three'), 'req-3')]);
    expect(res.status).toBe(200);
    expect(res.body.results.map((r) => [r.status, (r.body as { from: string }).from, (r.body as { content: string }).content])).toEqual([
      [200, ann.userId, 'one'],
      [200, bob.userId, 'two'],
      [200, ann.userId, 'three'],
    ]);
    expect(res.body.results[1].body).toMatchObject({ session: bob.sessionId });
    // A handler returning nothing is acknowledged { ok: true }, as on the single route.
    const typing = await batch([{ event: 'typing', token: ann.token, payload: JSON.stringify({ recipientId: bob.userId }) }]);
    expect(typing.body.results).toEqual([{ status: 200, body: { ok: true } }]);
  });

  it("answers each item's failure in its place and never fails the others", async () => {
    const ann = await bed.signIn();
    const items: SocketEventBatchItem[] = [
      send(ann.token, message('fine')),
      send(ann.token, { recipientId: 'not-a-user', content: 'x' }, 'bad-payload'),
      { event: 'send_message', token: ann.token, payload: '{"recipientId": ' },
      { event: 'send_message', token: ann.token, payload: '{"__proto__": {"admin": true}}' },
      { event: 'send_message', token: ann.token, payload: `${'['.repeat(40)}${']'.repeat(40)}` },
      { event: 'send_message', token: ann.token, payload: 'null' },
      { event: 'no_such_event', token: ann.token, payload: '{}' },
      send(ann.token, message('explode'), 'exploding'),
      send(ann.token, message('also fine')),
    ];
    const res = await batch(items);
    expect(res.status).toBe(200);
    const [fine, invalid, malformed, proto, deep, notObject, unknown, exploded, alsoFine] = res.body.results;
    expect(fine).toMatchObject({ status: 200, body: { content: 'fine' } });
    expect(invalid).toMatchObject({ status: 400, body: { code: ErrorCode.ValidationFailed, requestId: 'bad-payload' } });
    expect(malformed).toMatchObject({ status: 400, body: { error: BodyErrorMessages.malformed, code: ErrorCode.MalformedJson } });
    expect(proto).toMatchObject({ status: 400, body: { code: ErrorCode.ValidationFailed } });
    expect(deep).toMatchObject({ status: 400, body: { code: ErrorCode.ValidationFailed } });
    expect(notObject).toMatchObject({ status: 400, body: { code: ErrorCode.MalformedJson } });
    expect(unknown).toMatchObject({ status: 404, body: { error: SocketMessages.unknownEvent } });
    expect(exploded).toMatchObject({ status: 500, body: { code: ErrorCode.Internal, requestId: 'exploding' } });
    expect(JSON.stringify(exploded)).not.toContain('hunter2');
    expect(alsoFine).toMatchObject({ status: 200, body: { content: 'also fine' } });
  });

  it('authenticates every item as the guard does: bad, foreign, expired and unsigned tokens are 401', async () => {
    const ann = await bed.signIn();
    const jwt = new JwtService({});
    const claims = { sub: ann.userId, sid: ann.sessionId, role: 'member' };
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const tokens = [
      '',
      'garbage',
      jwt.sign(claims, { secret: 'another-deployments-secret-0123456789', algorithm: 'HS256', expiresIn: '1h' }),
      jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, { secret: bed.env.JWT_SECRET as string, algorithm: 'HS256' }),
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...claims, exp: Math.floor(Date.now() / 1000) + 600 })}.`,
      jwt.sign({ sub: ann.userId, role: 'member' }, { secret: bed.env.JWT_SECRET as string, algorithm: 'HS256', expiresIn: '1h' }),
      jwt.sign(claims, { secret: bed.env.JWT_SECRET as string, algorithm: 'HS512', expiresIn: '1h' }),
    ];
    const res = await batch([...tokens.map((t) => send(t, message())), send(ann.token, message('real'))]);
    expect(res.status).toBe(200);
    const answers = res.body.results;
    for (const refused of answers.slice(0, tokens.length)) {
      expect(refused).toMatchObject({ status: 401, body: { error: AuthMessages.authRequired } });
    }
    expect(answers[tokens.length]).toMatchObject({ status: 200, body: { from: ann.userId, content: 'real' } });
  });

  it('refuses an item whose session was revoked or belongs to someone else, and an unverified account, and slides live sessions', async () => {
    const ann = await bed.signIn();
    const revoked = await bed.signIn();
    const unverified = await bed.signIn(undefined, undefined, { verified: false });
    const sessionKey = (sid: string) => `${bed.env.KEY_PREFIX}:session:${sid}`;
    await redis.pexpire(sessionKey(ann.sessionId), 60_000);
    // The same session id under another member's name: the session's owner must match the token's.
    const stolen = new JwtService({}).sign(
      { sub: randomUUID(), sid: ann.sessionId, role: 'member' },
      { secret: bed.env.JWT_SECRET as string, algorithm: 'HS256', expiresIn: '1h' },
    );
    const store = await import('../../auth/session-store');
    await new store.SessionStore(redis, bed.env.KEY_PREFIX as string).revoke(revoked.sessionId, revoked.userId);
    const res = await batch([send(revoked.token, message()), send(ann.token, message('live')), send(unverified.token, message()), send(stolen, message())]);
    expect(res.body.results).toEqual([
      { status: 401, body: expect.objectContaining({ error: AuthMessages.sessionExpired, code: ErrorCode.SessionExpired }) },
      { status: 200, body: expect.objectContaining({ from: ann.userId, content: 'live' }) },
      { status: 403, body: expect.objectContaining({ error: AuthMessages.emailNotVerified, code: ErrorCode.EmailNotVerified }) },
      { status: 401, body: expect.objectContaining({ code: ErrorCode.SessionExpired }) },
    ]);
    // The live session was touched: its idle expiry slid back to the full window.
    expect(await redis.pttl(sessionKey(ann.sessionId))).toBeGreaterThan(60_000);
  });

  it('checks the session of a token it accepted before on every item, and refuses it once its exp has passed', async () => {
    const ann = await bed.signIn();
    const soon = Math.floor(Date.now() / 1000) + 2;
    const shortLived = new JwtService({}).sign(
      { sub: ann.userId, sid: ann.sessionId, role: 'member', exp: soon },
      { secret: bed.env.JWT_SECRET as string, algorithm: 'HS256' },
    );
    const first = await batch([send(ann.token, message('one')), send(shortLived, message('two'))]);
    expect(first.body.results.map((r) => r.status)).toEqual([200, 200]);
    // Accepted once, the token is still refused the moment it expires...
    await waitFor(async () => Date.now() >= soon * 1000, { timeoutMs: 5_000, intervalMs: 50, what: 'the token to expire' });
    const later = await batch([send(shortLived, message('three')), send(ann.token, message('four'))]);
    expect(later.body.results.map((r) => r.status)).toEqual([401, 200]);
    // ...and the moment its session ends.
    await new SessionStore(redis, bed.env.KEY_PREFIX as string).revoke(ann.sessionId, ann.userId);
    const revoked = await batch([send(ann.token, message('five'))]);
    expect(revoked.body.results).toEqual([{ status: 401, body: expect.objectContaining({ code: ErrorCode.SessionExpired }) }]);
  });

  it('answers every item 503 (retryable) when the session store fails, and works again after', async () => {
    const ann = await bed.signIn();
    const sessions = bed.app.get(SessionStore);
    const spy = jest.spyOn(sessions, 'touchMany').mockRejectedValueOnce(new Error('Connection is closed.'));
    try {
      const res = await batch([send(ann.token, message()), send(ann.token, message())]);
      expect(res.status).toBe(200);
      expect(res.body.results).toEqual([0, 1].map(() => ({ status: 503, body: expect.objectContaining({ code: ErrorCode.ServiceUnavailable }) })));
      expect((await batch([send(ann.token, message('again'))])).body.results).toEqual([{ status: 200, body: expect.objectContaining({ content: 'again' }) }]);
    } finally {
      spy.mockRestore();
    }
  });

  it('is only for the gateway, and refuses a malformed batch whole', async () => {
    const ann = await bed.signIn();
    const items = [send(ann.token, message())];
    expect(await batch(items, {})).toMatchObject({ status: 403 });
    expect(await batch(items, { [INTERNAL_TOKEN_HEADER]: `${INTERNAL_TOKEN}x` })).toMatchObject({ status: 403 });
    // A member's own token on the request does not open it either.
    const withToken = await bed.call('POST', SOCKET_EVENTS_PATH, { token: ann.token, body: { items } });
    expect(withToken.status).toBe(403);
    const tooMany = Array.from({ length: SOCKET_EVENT_BATCH_MAX + 1 }, () => send(ann.token, message()));
    for (const bad of [[], tooMany, 'items', [{ ...items[0], extra: 1 }], [{ event: 'send_message' }], [{ ...items[0], payload: {} }], [{ ...items[0], requestId: 'bad id\n' }]]) {
      const res = await batch(bad);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/Malformed socket event batch/);
    }
    const extraField = await bed.call('POST', SOCKET_EVENTS_PATH, { body: { items, more: true }, headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN } });
    expect(extraField.status).toBe(400);
  });

  it('keeps the single-event route working beside it', async () => {
    const ann = await bed.signIn();
    const res = await bed.call('POST', `${SOCKET_EVENTS_PATH}/send_message`, {
      token: ann.token,
      body: message('single'),
      headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
    });
    expect(res).toMatchObject({ status: 200, body: { from: ann.userId, content: 'single' } });
  });

  it('counts a @CountedPerMember event once its payload is valid, the delivery in one Redis call, 429 past the limit', async () => {
    const [ann, bob] = [await bed.signIn(), await bed.signIn()];
    const sync = (token: string, payload: unknown): SocketEventBatchItem => ({ event: 'sync_messages', token, payload: JSON.stringify(payload) });
    const someone = { recipientId: randomUUID() };
    const sessions = bed.app.get(SessionStore);
    const counted = jest.spyOn(sessions, 'countMembers');
    try {
      const res = await batch([
        sync(ann.token, { recipientId: 'x' }),
        sync(ann.token, someone),
        sync(bob.token, someone),
        { event: 'typing', token: ann.token, payload: JSON.stringify(someone) },
        sync(ann.token, someone),
        sync(ann.token, someone),
        sync(ann.token, { recipientId: NOBODY }),
      ]);
      expect(res.body.results.map((r) => [r.status, (r.body as { error?: string }).error])).toEqual([
        [400, expect.any(String)],
        [200, undefined],
        [200, undefined],
        [200, undefined],
        [200, undefined],
        [429, TOO_MANY_SYNCS],
        [200, undefined],
      ]);
      expect(counted).toHaveBeenCalledTimes(1);
    } finally {
      counted.mockRestore();
    }
    // The single route counts the same counters: past the limit it is 429 with Retry-After.
    const single = await bed.call<{ error: string; code: string }>('POST', `${SOCKET_EVENTS_PATH}/sync_messages`, {
      token: ann.token,
      body: someone,
      headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
    });
    expect(single).toMatchObject({ status: 429, body: { error: TOO_MANY_SYNCS, code: ErrorCode.RateLimited } });
    // Redis failing the count answers the counted items 503 (retryable), the others as usual.
    const failing = jest.spyOn(sessions, 'countMembers').mockRejectedValueOnce(new Error('Connection is closed.'));
    try {
      const res = await batch([sync(bob.token, someone), { event: 'typing', token: bob.token, payload: JSON.stringify(someone) }]);
      expect(res.body.results.map((r) => r.status)).toEqual([503, 200]);
    } finally {
      failing.mockRestore();
    }
  });

  it("refuses a payload by its sender-rule (refusalFor) as it refuses a field, on both routes", async () => {
    const ann = await bed.signIn();
    const toSelf = { recipientId: ann.userId };
    const res = await batch([{ event: 'mark_as_read', token: ann.token, payload: JSON.stringify(toSelf) }]);
    expect(res.body.results).toEqual([{ status: 400, body: expect.objectContaining({ error: 'Not to yourself' }) }]);
    const single = await bed.call('POST', `${SOCKET_EVENTS_PATH}/mark_as_read`, {
      token: ann.token,
      body: toSelf,
      headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
    });
    expect(single).toMatchObject({ status: 400, body: { error: 'Not to yourself' } });
  });

  it("gives the service a PresenceReader on the service's Redis and key prefix", async () => {
    const reader = bed.app.get(PresenceReader);
    const userId = randomUUID();
    expect(await reader.isOnline(userId)).toBe(false);
    const prefix = bed.env.KEY_PREFIX as string;
    await redis.set(presenceInstanceKey(prefix, 'gateway-1'), '1', 'PX', 60_000);
    await redis.hset(presenceUserKey(prefix, userId), presenceField('gateway-1', 'socket-1'), 'gateway-1');
    expect(await reader.isOnline(userId)).toBe(true);
  });
});
