import type { ExecutionContext } from '@nestjs/common';
import type { AuthPrincipal } from '@mate/contracts';

/**
 * What passport reads (`headers.authorization`) and where the guard leaves the principal, for the
 * three kinds of Nest handler: HTTP routes, socket.io handlers ('ws') and service calls ('rpc').
 * A socket carries its bearer token in the handshake (`auth.token`, or the `token` query
 * parameter); a service call in its context's headers (`getHeaders()`) or in `data.headers`.
 */
export interface AuthRequest {
  headers: Record<string, string | string[] | undefined>;
  user?: AuthPrincipal;
}

interface SocketLike {
  handshake?: { auth?: Record<string, unknown>; query?: Record<string, unknown>; headers?: Record<string, string | string[] | undefined> };
  data?: { user?: AuthPrincipal; [key: string]: unknown };
}

interface RpcContextLike {
  getHeaders?: () => unknown;
}

/** One request-like object per socket or call, so the principal set by passport can be read back. */
const requests = new WeakMap<object, AuthRequest>();

function bearer(token: unknown): string | undefined {
  return typeof token === 'string' && token ? `Bearer ${token}` : undefined;
}

function socketRequest(client: SocketLike): AuthRequest {
  const handshake = client.handshake ?? {};
  const authorization =
    bearer(handshake.auth?.token) ?? bearer(handshake.query?.token) ?? (handshake.headers?.authorization as string | undefined);
  return { headers: { authorization }, user: client.data?.user };
}

function rpcRequest(ctx: RpcContextLike | undefined, data: { headers?: unknown } | undefined): AuthRequest {
  const raw = (typeof ctx?.getHeaders === 'function' ? ctx.getHeaders() : data?.headers) ?? {};
  const headers: AuthRequest['headers'] = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof value === 'string' || Array.isArray(value)) headers[name.toLowerCase()] = value as string | string[];
  }
  return { headers };
}

/** The request passport authenticates, whatever the kind of handler. */
export function authRequestOf(context: ExecutionContext): AuthRequest {
  switch (context.getType()) {
    case 'ws': {
      const client = context.switchToWs().getClient<SocketLike & object>();
      let req = requests.get(client);
      if (!req) requests.set(client, (req = socketRequest(client)));
      return req;
    }
    case 'rpc': {
      const rpc = context.switchToRpc();
      const key = (rpc.getContext<object | undefined>() ?? rpc.getData<object>()) as object;
      let req = requests.get(key);
      if (!req) requests.set(key, (req = rpcRequest(rpc.getContext(), rpc.getData())));
      return req;
    }
    default:
      return context.switchToHttp().getRequest<AuthRequest>();
  }
}

/** Keeps the principal where later handlers of the same socket find it. */
export function rememberPrincipal(context: ExecutionContext, principal: AuthPrincipal): void {
  if (context.getType() === 'ws') {
    const client = context.switchToWs().getClient<SocketLike>();
    client.data = { ...(client.data ?? {}), user: principal };
  }
}

export function principalOf(context: ExecutionContext): AuthPrincipal {
  return authRequestOf(context).user as AuthPrincipal;
}
