import type { LookupAddress } from 'node:dns';
import webpush, { WebPushError } from 'web-push';
import { NonPublicAddressError, pushAgent, type ResolveAll } from '../push-endpoint';
import { Browser, PushServiceStandIn } from './push-service-stand-in';

/**
 * The connection-time check (issue 24 item 5; ADR 0017 "SSRF", layer 3), through the agent every
 * push goes through and web-push itself, against a stand-in push service on 127.0.0.1: whatever
 * the URL check let through, the socket never carries a push to a non-public address.
 */
describe('the push agent connects only to public addresses (a listener on 127.0.0.1)', () => {
  const strict = { allowLoopback: false };
  const vapid = webpush.generateVAPIDKeys();
  const standIn = new PushServiceStandIn();

  beforeAll(() => standIn.start());
  afterAll(() => standIn.stop());

  /** Sends one push to `endpoint` as PushSender does; answers what web-push settled with. */
  async function push(endpoint: string, agent: ReturnType<typeof pushAgent>): Promise<unknown> {
    const { keys } = new Browser(standIn).subscription();
    try {
      await webpush.sendNotification({ endpoint, keys }, '{"kind":"test"}', {
        vapidDetails: { ...vapid, subject: 'mailto:push@mate.test' },
        contentEncoding: 'aes128gcm',
        agent,
        timeout: 5_000,
      });
      return 'sent';
    } catch (e) {
      return e;
    } finally {
      agent.destroy();
    }
  }

  const receivedAt = (path: string) => standIn.received.filter((r) => r.path === path);

  /** A resolver answering `addresses` for every name, one list per lookup in turn (DNS rebinding). */
  function resolverAnswering(...answers: string[][]): ResolveAll & { lookups: string[] } {
    const lookups: string[] = [];
    const resolve = (
      hostname: string,
      _options: unknown,
      callback: (err: null, a: LookupAddress[]) => void,
    ) => {
      lookups.push(hostname);
      const answer = answers[Math.min(lookups.length, answers.length) - 1] as string[];
      callback(
        null,
        answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      );
    };
    return Object.assign(resolve as ResolveAll, { lookups });
  }

  it('delivers through the same agent when loopback is allowed (the stand-in is reachable)', async () => {
    const agent = pushAgent({ allowLoopback: true }, { ca: standIn.certificate });
    expect(await push(`https://localhost:${standIn.port}/push/control-name`, agent)).toBe('sent');
    const literal = pushAgent({ allowLoopback: true }, { ca: standIn.certificate });
    expect(await push(`https://127.0.0.1:${standIn.port}/push/control-literal`, literal)).toBe('sent');
    expect(receivedAt('/push/control-name')).toHaveLength(1);
    expect(receivedAt('/push/control-literal')).toHaveLength(1);
  });

  it('refuses a name that resolves to 127.0.0.1 (localhost, by the system resolver): nothing reaches the listener', async () => {
    const outcome = await push(
      `https://localhost:${standIn.port}/push/localhost`,
      pushAgent(strict, { ca: standIn.certificate }),
    );
    expect(outcome).toBeInstanceOf(NonPublicAddressError);
    expect(receivedAt('/push/localhost')).toHaveLength(0);
  });

  it('refuses a public-looking name the resolver maps to 127.0.0.1, also when only one of its addresses is', async () => {
    for (const answer of [['127.0.0.1'], ['93.184.216.34', '127.0.0.1'], ['::ffff:0:7f00:1']]) {
      const resolve = resolverAnswering(answer);
      const outcome = await push(
        `https://push.rebinding.test:${standIn.port}/push/mapped`,
        pushAgent(strict, { ca: standIn.certificate }, resolve),
      );
      expect([answer, outcome]).toEqual([answer, expect.any(NonPublicAddressError)]);
      expect(resolve.lookups).toEqual(['push.rebinding.test']);
    }
    expect(receivedAt('/push/mapped')).toHaveLength(0);
  });

  it('checks the address of each connection, not of the first lookup (DNS rebinding: public, then 127.0.0.1)', async () => {
    const resolve = resolverAnswering(['93.184.216.34'], ['127.0.0.1']);
    const agent = pushAgent(strict, { ca: standIn.certificate }, resolve);
    // The first lookup's answer is public: the name is taken (the URL check would have let it through too).
    const first = await new Promise<unknown>((done) =>
      agent.options.lookup?.('push.rebinding.test', { all: true }, (err) => done(err)),
    );
    expect(first).toBeNull();
    // The connection's own lookup now answers 127.0.0.1, and nothing is sent.
    expect(await push(`https://push.rebinding.test:${standIn.port}/push/rebound`, agent)).toBeInstanceOf(
      NonPublicAddressError,
    );
    expect(resolve.lookups).toHaveLength(2);
    expect(receivedAt('/push/rebound')).toHaveLength(0);
  });

  it('refuses an IP literal the URL check did not stop (no lookup happens for one): nothing reaches the listener', async () => {
    const outcome = await push(
      `https://127.0.0.1:${standIn.port}/push/literal`,
      pushAgent(strict, { ca: standIn.certificate }),
    );
    expect(outcome).toBeInstanceOf(NonPublicAddressError);
    expect(outcome).not.toBeInstanceOf(WebPushError);
    expect(receivedAt('/push/literal')).toHaveLength(0);
  });
});
