import { randomUUID } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { IsString, IsUUID, MaxLength } from 'class-validator';
import { INTERNAL_TOKEN_HEADER, SERVICES, type AuthPrincipal } from '@mate/contracts';
import { startServiceTestBed, type ServiceTestBed } from '../../../testing/service-test-bed';
import { DatabaseEnv } from '../../config/config';
import { badRequest } from '../../errors/app.exception';
import { ServiceModule } from '../../service.module';
import { RealtimeModule } from '../realtime.module';
import { SOCKET_EVENTS_PATH } from '../realtime.keys';
import { SocketEvent, SocketEventBatch, type SocketEventBatchItem, type SocketEventBatchResult, type SocketEventEntry } from '../socket-event';

jest.setTimeout(30_000);

const INTERNAL_TOKEN = 'socket-event-batch-handler-credential-0123456789';

class SendDto {
  @IsUUID('4') recipientId!: string;
  @IsString() @MaxLength(100) content!: string;
}
class RecipientDto {
  @IsUUID('4') recipientId!: string;
}

/** send_message handled a delivery at a time; the calls are kept so a test sees how it was called. */
@Injectable()
class BatchEvents {
  readonly calls: SocketEventEntry<SendDto>[][] = [];

  @SocketEventBatch('send_message', SendDto)
  async send(entries: SocketEventEntry<SendDto>[]): Promise<PromiseSettledResult<unknown>[]> {
    this.calls.push(entries);
    if (entries.some((e) => e.payload.content === 'explode')) throw new Error('the whole delivery failed');
    return entries.map(({ payload, sender, requestId }) =>
      payload.content === 'refuse'
        ? { status: 'rejected', reason: badRequest('refused alone') }
        : { status: 'fulfilled', value: { from: sender.userId, content: payload.content, requestId } },
    );
  }
  @SocketEvent('typing') typing(_payload: RecipientDto, sender: AuthPrincipal) {
    return { typing: sender.userId };
  }
  @SocketEvent('stop_typing') stopTyping(_payload: RecipientDto) {
    return undefined;
  }
  @SocketEvent('mark_as_read') markAsRead(_payload: RecipientDto) {
    return undefined;
  }
  @SocketEvent('sync_messages') sync(_payload: RecipientDto) {
    return undefined;
  }
}
@Module({ providers: [BatchEvents] })
class BatchModule {}

const batchService = (env?: Partial<Record<string, string>>) =>
  ServiceModule.forRoot({ service: SERVICES.chat, envClass: DatabaseEnv, env, entities: [], migrations: [], features: [BatchModule, RealtimeModule.forRoot()] });

/** `@SocketEventBatch` (docs/adr/0005-realtime.md, issue 27): one call per delivery, each event answered alone. */
describe('socket event batch handlers (real PostgreSQL and Redis)', () => {
  let bed: ServiceTestBed;
  let events: BatchEvents;

  beforeAll(async () => {
    bed = await startServiceTestBed(batchService, { label: 'socket_batch_handler', env: { INTERNAL_TOKEN } });
    events = bed.app.get(BatchEvents);
  });

  afterAll(async () => {
    await bed?.close();
  });

  const batch = (items: SocketEventBatchItem[]) =>
    bed.call<{ results: SocketEventBatchResult[] }>('POST', SOCKET_EVENTS_PATH, { body: { items }, headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN } });
  const send = (token: string, content: string, requestId?: string): SocketEventBatchItem => ({
    event: 'send_message',
    token,
    requestId,
    payload: JSON.stringify({ recipientId: randomUUID(), content }),
  });

  it('calls the handler once with the delivery’s checked events, in order, and answers each in its place', async () => {
    const [ann, bob] = [await bed.signIn(), await bed.signIn()];
    events.calls.length = 0;
    const res = await batch([
      send(ann.token, 'one', 'req-1'),
      { event: 'typing', token: bob.token, payload: JSON.stringify({ recipientId: ann.userId }) },
      send(bob.token, 'refuse'),
      { event: 'send_message', token: ann.token, payload: JSON.stringify({ recipientId: 'nope', content: 'x' }) },
      send('not-a-token', 'forged'),
      send(bob.token, 'two'),
    ]);
    expect(events.calls).toHaveLength(1);
    expect(events.calls[0].map((e) => [e.sender.userId, e.payload.content])).toEqual([
      [ann.userId, 'one'],
      [bob.userId, 'refuse'],
      [bob.userId, 'two'],
    ]);
    const results = res.body.results;
    expect(results.map((r) => r.status)).toEqual([200, 200, 400, 400, 401, 200]);
    expect(results[0].body).toEqual({ from: ann.userId, content: 'one', requestId: 'req-1' });
    expect(results[1].body).toEqual({ typing: bob.userId });
    expect(results[2].body).toMatchObject({ error: 'refused alone' });
    expect(results[5].body).toMatchObject({ from: bob.userId, content: 'two' });
  });

  it('answers only its own events with the error when the handler fails, and serves the single route with one entry', async () => {
    const ann = await bed.signIn();
    const res = await batch([
      send(ann.token, 'one'),
      { event: 'typing', token: ann.token, payload: JSON.stringify({ recipientId: randomUUID() }) },
      send(ann.token, 'explode'),
    ]);
    expect(res.body.results.map((r) => r.status)).toEqual([500, 200, 500]);
    expect(JSON.stringify(res.body.results)).not.toContain('the whole delivery failed');
    events.calls.length = 0;
    const single = await bed.call('POST', `${SOCKET_EVENTS_PATH}/send_message`, {
      token: ann.token,
      body: { recipientId: randomUUID(), content: 'alone' },
      headers: { [INTERNAL_TOKEN_HEADER]: INTERNAL_TOKEN },
    });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ from: ann.userId, content: 'alone' });
    expect(events.calls).toHaveLength(1);
  });
});
