import { ChatSync, createApiClient, createSocketClient, SocketError, type SocketClient } from '@mate/api-client';
import { ErrorCode, type ClientEventName, type ClientEventPayload } from '@mate/contracts';
import type { SignedIn } from './population';
import type { Traffic } from './traffic';

/**
 * One member of the population, as the app is: the typed API client and socket client of
 * `@mate/api-client` through the gateway, and the app's own chat delivery engine (ChatSync: client
 * ids, acknowledgements, resend, resume). Every request it makes is recorded in `traffic`.
 */
export class Member {
  readonly socket: SocketClient;
  readonly sync: ChatSync;
  /** Calls ringing for this member now: the caller's id. */
  private readonly calls = new Set<string>();
  /** Callers waiting for this member to answer: resolves when 'call:accepted' comes from them. */
  private readonly answered = new Map<string, () => void>();
  connects = 0;
  sessionEnded = false;

  constructor(
    readonly gatewayUrl: string,
    readonly me: SignedIn,
    private readonly traffic: Traffic,
    { answerCalls = true }: { answerCalls?: boolean } = {},
  ) {
    this.socket = createSocketClient({
      baseUrl: gatewayUrl,
      getToken: () => me.token,
      onSessionEnded: () => {
        this.sessionEnded = true;
      },
      options: { transports: ['websocket'] },
    });
    const api = createApiClient({ baseUrl: gatewayUrl, getToken: () => me.token, fetch: traffic.fetch });
    this.sync = new ChatSync({ socket: this.socket, api: api.chat, selfId: me.userId });
    this.socket.socket.on('connect', () => this.connects++);
    if (answerCalls) {
      this.socket.socket.on('call:incoming', ({ from }) => {
        this.calls.add(from);
        void this.request('call:accept', { to: from }).finally(() => this.calls.delete(from));
      });
    }
    this.socket.socket.on('call:accepted', ({ from }) => this.answered.get(from)?.());
  }

  get userId(): string {
    return this.me.userId;
  }

  connect(): void {
    this.sync.start();
    this.socket.connect();
  }

  close(): void {
    this.sync.stop();
    this.socket.disconnect();
  }

  /** One HTTP call through the gateway; the body is parsed when it is JSON. */
  async http<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T | null }> {
    try {
      const res = await this.traffic.fetch(`${this.gatewayUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.me.token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      let parsed: T | null = null;
      try {
        parsed = text ? (JSON.parse(text) as T) : null;
      } catch {
        parsed = null;
      }
      return { status: res.status, body: parsed };
    } catch {
      return { status: 0, body: null };
    }
  }

  /**
   * A socket request with its outcome recorded; false when it did not succeed. Not sent while the
   * socket is down (the app would not offer the action then): that is not a request.
   */
  async request<E extends ClientEventName>(event: E, payload: ClientEventPayload<E>): Promise<boolean | null> {
    if (!this.socket.socket.connected) return null;
    const startedAt = Date.now();
    try {
      await this.socket.request(event, payload);
      this.traffic.socket(event, startedAt, 'ok');
      return true;
    } catch (e) {
      const code = e instanceof SocketError ? e.code : undefined;
      const unavailable = code === ErrorCode.ServiceUnavailable || code === ErrorCode.Internal || code === undefined;
      this.traffic.socket(event, startedAt, unavailable ? 'unavailable' : 'refused');
      return false;
    }
  }

  /**
   * Rings `other`, waits for their answer (their socket accepts on 'call:incoming') up to
   * `answerTimeoutMs`, and hangs up. Signalling only: no media flows. Resolves with whether the
   * call was answered.
   */
  async call(other: Member, answerTimeoutMs: number): Promise<boolean> {
    let resolveAnswer: () => void = () => undefined;
    const accepted = new Promise<boolean>((resolve) => {
      resolveAnswer = () => resolve(true);
      setTimeout(() => resolve(false), answerTimeoutMs).unref();
    });
    this.answered.set(other.userId, resolveAnswer);
    try {
      const rang = await this.request('call:initiate', { to: other.userId, callerName: this.me.name });
      if (!rang) return false;
      const answered = await accepted;
      await this.request('call:end', { to: other.userId });
      return answered;
    } finally {
      this.answered.delete(other.userId);
    }
  }
}
