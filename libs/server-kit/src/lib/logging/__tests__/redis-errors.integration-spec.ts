import { Writable } from 'node:stream';
import Redis from 'ioredis';
import pino from 'pino';
import { createTestRedisNamespace } from '@mate/testing';
import { RealtimeEmitter } from '../../realtime/realtime-emitter';
import { realtimeStreamName } from '../../realtime/realtime.keys';
import { REDACTED_PATHS, serializeError } from '../logger';

/** The kit's logger settings, writing into an array. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  return { logger: pino({ redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { err: serializeError } }, stream), lines };
}

describe('logging a failed Redis command (real Redis)', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let redis: Redis;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('log_redis');
    redis = new Redis(ns.url);
  });

  afterAll(async () => {
    await redis?.quit();
    await ns?.cleanup();
  });

  // ioredis attaches the failed command's arguments to its errors (`err.command.args`): a push's
  // message, a job's data or a reset token would be written wherever such an error is logged.
  it("keeps the command's name and error, never its arguments", async () => {
    await redis.set(realtimeStreamName(ns.prefix), 'not a stream');
    const err: unknown = await new RealtimeEmitter(redis, ns.prefix)
      .toUser('member-1')
      .emit('new_message', { id: 'm1', senderId: 's1', recipientId: 'member-1', content: 'a private message text', createdAt: 'now', seq: 1, isRead: false, senderName: null, clientId: null })
      .catch((e: unknown) => e);
    const { logger, lines } = capture();
    logger.error({ err }, 'unhandled error');
    const text = lines.join('');
    expect(text).toContain('WRONGTYPE');
    expect(text).toContain('xadd');
    expect(text).not.toContain('a private message text');
  });
});
