import { Injectable, Module, type DynamicModule, type INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { ModuleRef, Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { NestFactory } from '@nestjs/core';
import { lastValueFrom, type Observable } from 'rxjs';
import type Redis from 'ioredis';
import pino from 'pino';
import { AuthMessages, ErrorCode, ROLE_ADMIN, ROLE_MEMBER, SERVICES, type AuthPrincipal } from '@mate/contracts';
import { SessionAuthGuard } from '../../auth/auth.guard';
import { JwtStrategy } from '../../auth/jwt.strategy';
import { SessionStore } from '../../auth/session-store';
import { BaseServiceEnv } from '../../config/config';
import { CoreModule } from '../../core.module';
import { QUEUE_CONNECTION, REDIS } from '../../redis/redis';
import { badRequest } from '../../errors/app.exception';
import { GlobalErrorFilter } from '../../errors/error.filter';
import { issueSession } from '../../../testing/service-app';
import { createTestRedisNamespace } from '@mate/testing';
import { REALTIME_REDIS, RealtimeModule } from '../realtime.module';
import { SocketEvent, SocketEventRegistry } from '../socket-event';
import { Roles } from '../../auth/decorators';

/**
 * Starting a service (a database, migrations, Nest, a port) and closing it take seconds on a busy
 * machine (CI runs every project's tests at once on 2 CPUs): far over Jest's 5 s default.
 */
jest.setTimeout(30_000);

const JWT_SECRET = 'contexts-integration-secret-0123456789';

function wsContext(client: object, data: unknown = {}) {
  const host = new ExecutionContextHost([client, data], SessionAuthGuard, SessionAuthGuard.prototype.canActivate);
  host.setType('ws');
  return host;
}

function rpcContext(data: unknown, ctx?: object) {
  const host = new ExecutionContextHost([data, ctx], SessionAuthGuard, SessionAuthGuard.prototype.canActivate);
  host.setType('rpc');
  return host;
}

describe('the auth guard and error filter outside HTTP', () => {
  let ns: Awaited<ReturnType<typeof createTestRedisNamespace>>;
  let app: INestApplicationContext;
  let guard: SessionAuthGuard;
  let sessions: SessionStore;

  beforeAll(async () => {
    ns = await createTestRedisNamespace('contexts');
    const env = { REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, JWT_SECRET, LOG_LEVEL: 'silent' };
    app = await NestFactory.createApplicationContext(CoreModule.forRoot({ service: SERVICES.chat, envClass: BaseServiceEnv, env }), { logger: false });
    guard = new SessionAuthGuard(app.get(Reflector), app.get(JwtStrategy), app.get(ModuleRef));
    sessions = app.get(SessionStore);
  });

  afterAll(async () => {
    await app?.close();
    await ns?.cleanup();
  });

  describe('SessionAuthGuard', () => {
    it('authenticates a socket by its handshake token and keeps the principal on socket.data', async () => {
      const { token, userId, sessionId } = await issueSession(sessions, JWT_SECRET);
      const client = { handshake: { auth: { token } }, data: {} as { user?: AuthPrincipal } };
      await expect(guard.canActivate(wsContext(client))).resolves.toBe(true);
      expect(client.data.user).toEqual({ userId, sessionId, role: 'member', verified: true });
    });

    it('refuses the session of an account whose email is not verified (issue 7, item 7)', async () => {
      const { token, userId } = await issueSession(sessions, JWT_SECRET, undefined, undefined, { verified: false });
      const refusal = { response: { error: AuthMessages.emailNotVerified, code: ErrorCode.EmailNotVerified } };
      await expect(guard.canActivate(wsContext({ handshake: { auth: { token } }, data: {} }))).rejects.toMatchObject(refusal);
      await sessions.setVerified(userId);
      await expect(guard.canActivate(wsContext({ handshake: { auth: { token } }, data: {} }))).resolves.toBe(true);
    });

    it('refuses a socket whose session was revoked, with the HTTP error body', async () => {
      const { token, userId, sessionId } = await issueSession(sessions, JWT_SECRET);
      await sessions.revoke(sessionId, userId);
      await expect(guard.canActivate(wsContext({ handshake: { query: { token } }, data: {} }))).rejects.toMatchObject({
        response: { error: AuthMessages.sessionExpired, code: ErrorCode.SessionExpired },
      });
    });

    it('authenticates a service call by the authorization header it carries', async () => {
      const { authorization, userId } = await issueSession(sessions, JWT_SECRET);
      await expect(guard.canActivate(rpcContext({ headers: { Authorization: authorization } }))).resolves.toBe(true);
      await expect(guard.canActivate(rpcContext({}, { getHeaders: () => ({ authorization }) }))).resolves.toBe(true);
      await expect(guard.canActivate(rpcContext({ headers: {} }))).rejects.toMatchObject({ response: { error: AuthMessages.authRequired } });
      expect(userId).toBeTruthy();
    });
  });

  describe('GlobalErrorFilter', () => {
    const filter = new GlobalErrorFilter(pino({ level: 'silent' }));

    it('sends a socket the error body as its exception event', () => {
      const emitted: unknown[] = [];
      const client = { emit: (event: string, body: unknown) => emitted.push([event, body]) };
      const body = filter.catch(badRequest('content must be a string'), wsContext(client));
      expect(emitted).toEqual([['exception', expect.objectContaining({ error: 'content must be a string', code: ErrorCode.ValidationFailed })]]);
      expect(body).toMatchObject({ error: 'content must be a string' });
    });

    it('fails a service call with the error body, hiding internal errors', async () => {
      const failed = filter.catch(new Error('db password is x'), rpcContext({})) as Observable<never>;
      const error = await lastValueFrom(failed).catch((e: unknown) => e);
      expect(error).toMatchObject({ error: 'Something went wrong on our side. Please try again.', code: ErrorCode.Internal });
      expect(JSON.stringify(error)).not.toContain('password');
    });
  });

  describe('@SocketEvent handlers', () => {
    /** Starts call-service's realtime wiring with these handlers, and always closes it again. */
    async function start(module: DynamicModule, use?: (app: INestApplicationContext) => Promise<void>) {
      const env = { REDIS_URL: ns.url, KEY_PREFIX: ns.prefix, JWT_SECRET, LOG_LEVEL: 'silent' };
      const ref = await Test.createTestingModule({
        imports: [CoreModule.forRoot({ service: SERVICES.call, envClass: BaseServiceEnv, env }), RealtimeModule.forRoot(), module],
      }).compile();
      try {
        await ref.init();
        try {
          await use?.(ref);
        } finally {
          await ref.close();
        }
      } catch (e) {
        // close() rethrows a failed init without closing anything: end the connections here.
        for (const token of [REDIS, QUEUE_CONNECTION, REALTIME_REDIS]) ref.get<Redis>(token).disconnect();
        throw e;
      }
    }

    it('refuses to start when an event the service owns has no handler', async () => {
      @Injectable()
      class Partial {
        @SocketEvent('call:initiate') initiate() {
          return { ok: true };
        }
      }
      @Module({ providers: [Partial] })
      class Handlers {}
      await expect(start({ module: Handlers })).rejects.toThrow(/call-service owns socket events without a @SocketEvent handler: call:accept/);
    });

    it("refuses to start when a handler claims another service's event", async () => {
      @Injectable()
      class Wrong {
        @SocketEvent('send_message') send() {
          return { ok: true };
        }
      }
      @Module({ providers: [Wrong] })
      class Handlers {}
      await expect(start({ module: Handlers })).rejects.toThrow(/belongs to chat-service/);
    });

    it('applies @Roles on a handler: a member is refused, an admin gets through', async () => {
      @Injectable()
      class CallEvents {
        @Roles(ROLE_ADMIN) @SocketEvent('call:initiate') initiate() {
          return { ok: true };
        }
        @SocketEvent('call:accept') accept() {
          return undefined;
        }
        @SocketEvent('call:reject') reject() {
          return undefined;
        }
        @SocketEvent('call:end') end() {
          return undefined;
        }
        @SocketEvent('call:signal') signal() {
          return undefined;
        }
        @SocketEvent('subtitle') subtitle() {
          return undefined;
        }
      }
      @Module({ providers: [CallEvents] })
      class Handlers {}
      await start({ module: Handlers }, async (app) => {
        const registry = app.get(SocketEventRegistry);
        const sender = { userId: 'u1', sessionId: 's1', verified: true };
        await expect(registry.dispatch('call:initiate', {}, { ...sender, role: ROLE_MEMBER })).rejects.toMatchObject({
          response: { error: AuthMessages.adminRequired, code: ErrorCode.Forbidden },
        });
        await expect(registry.dispatch('call:initiate', {}, { ...sender, role: ROLE_ADMIN })).resolves.toEqual({ ok: true });
        await expect(registry.dispatch('call:accept', {}, { ...sender, role: ROLE_MEMBER })).resolves.toEqual({ ok: true });
      });
    });

    it('refuses to start when a handler takes a payload that is not a validated class', async () => {
      // An interface or a record type reaches the method as `Object`: the pipe would pass anything.
      @Injectable()
      class Unchecked {
        @SocketEvent('call:initiate') initiate(payload: Record<string, unknown>) {
          return { ok: true, payload };
        }
      }
      @Module({ providers: [Unchecked] })
      class Handlers {}
      await expect(start({ module: Handlers })).rejects.toThrow(/Unchecked\.initiate takes a payload of no class: .*validated/);
    });
  });
});
