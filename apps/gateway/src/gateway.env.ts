import { IsInt, IsString, IsUrl, Max, Min } from 'class-validator';
import { SERVICE_REGISTRY } from '@mate/contracts';
import { BaseServiceEnv, EnvNumber } from '@mate/server-kit';

const url = { require_tld: false, require_protocol: true };

/** Settings of the gateway: where each service lives, and the edge limits. */
export class GatewayEnv extends BaseServiceEnv {
  /**
   * `<NAME>_SERVICE_URL` of every service in the registry (`AUTH_SERVICE_URL`, ...), by default
   * its registry port on this machine. Declared from the registry below, so a new service needs
   * no edit here.
   */
  [urlVariable: `${string}_SERVICE_URL`]: string;

  constructor() {
    super();
    for (const service of SERVICE_REGISTRY) this[service.urlVariable] = `http://127.0.0.1:${service.port}`;
  }

  /** The edge believes no X-Forwarded-For by default; set "1" behind one ingress hop. */
  @IsString()
  override TRUST_PROXY = 'false';

  /** The two web apps' origins, comma-separated. */
  @IsString()
  CORS_ORIGINS = 'http://localhost:4200,http://127.0.0.1:4200,http://localhost:4300,http://127.0.0.1:4300';

  /** Requests per minute one address may make through the gateway. */
  @EnvNumber() @IsInt() @Min(1) RATE_LIMIT_PER_MINUTE = 1200;

  /**
   * Largest request body for ordinary calls (the services accept at most 100 KB of JSON), and for
   * photo and audio uploads.
   */
  @EnvNumber() @IsInt() @Min(1024) BODY_LIMIT_BYTES = 100 * 1024;
  @EnvNumber() @IsInt() @Min(1024) UPLOAD_LIMIT_BYTES = 11 * 1024 * 1024;

  /** How long a service may take to answer before the gateway gives up. */
  @EnvNumber() @IsInt() @Min(100) UPSTREAM_TIMEOUT_MS = 30000;

  /**
   * Slow clients (docs/adr/0002-gateway-forwarder.md). An ordinary body is read whole at the
   * edge before a connection to the service is taken, and must have arrived this long after the
   * request did (408 after it); a client also has this long to send its request headers.
   */
  @EnvNumber() @IsInt() @Min(100) BODY_TIMEOUT_MS = 10_000;
  /**
   * Ordinary bodies being read at the edge, in bytes, on one replica (declared lengths, or bytes
   * received for chunked ones): past it a body is answered 503 with Retry-After instead of read.
   */
  @EnvNumber() @IsInt() @Min(1024) EDGE_MAX_BUFFERED_BYTES = 64 * 1024 * 1024;
  /**
   * Uploads stream to their service and must keep up UPLOAD_MIN_BYTES_PER_SECOND on average once
   * UPLOAD_BODY_BASE_MS have gone by (checked every second; time the service spends not reading
   * is not counted), must have arrived within UPLOAD_BODY_BASE_MS plus their length at that rate
   * (20 s + 11 MB at 8 KiB/s ≈ 24 min at most), with no pause longer than UPLOAD_IDLE_TIMEOUT_MS
   * between bytes; 408 otherwise, the exchange cut. 8 KiB/s (64 kbit/s) lets a weak 3G uplink through.
   */
  @EnvNumber() @IsInt() @Min(100) UPLOAD_BODY_BASE_MS = 20_000;
  @EnvNumber() @IsInt() @Min(1) UPLOAD_MIN_BYTES_PER_SECOND = 8 * 1024;
  @EnvNumber() @IsInt() @Min(100) UPLOAD_IDLE_TIMEOUT_MS = 15_000;
  /** Requests one client address (an IPv6 /64) may have in flight on one replica; more are answered 429. */
  @EnvNumber() @IsInt() @Min(1) MAX_CONCURRENT_PER_CLIENT = 32;
  /** Connections kept open to each service at most for ordinary calls; further requests wait for one. */
  @EnvNumber() @IsInt() @Min(1) UPSTREAM_MAX_SOCKETS = 256;
  /**
   * Connections to each service for uploads, a pool of their own: slow but accepted uploads fill
   * these, never the ones every other call needs.
   */
  @EnvNumber() @IsInt() @Min(1) UPSTREAM_MAX_UPLOAD_SOCKETS = 64;
  /** How long a request may wait for a connection to its service before it is answered 503. */
  @EnvNumber() @IsInt() @Min(100) UPSTREAM_QUEUE_TIMEOUT_MS = 5_000;

  /** Realtime (`/socket.io`): largest message a socket may send (a chat message, a call signal). */
  @EnvNumber() @IsInt() @Min(1024) SOCKET_MAX_PAYLOAD_BYTES = 100_000;
  /** Client events one socket may send per 10 s; twice that in refusals disconnects it. */
  @EnvNumber() @IsInt() @Min(1) SOCKET_EVENTS_PER_10_SECONDS = 100;
  /**
   * Open sockets one member may hold on one replica (tabs and devices). Each is authenticated and
   * lives for hours: without a cap one account could pile up sockets until the replica runs out.
   */
  @EnvNumber() @IsInt() @Min(1) SOCKET_MAX_PER_USER = 20;
  /** Events one socket may have waiting for their service at once; more are answered `RATE_LIMITED`. */
  @EnvNumber() @IsInt() @Min(1) SOCKET_MAX_EVENTS_IN_FLIGHT = 20;
  /** How long the owning service may take to answer a client event before its ack is `{ error }`. */
  @EnvNumber() @IsInt() @Min(100) SOCKET_ACK_TIMEOUT_MS = 10_000;
  /**
   * Requests delivering client events that may be in flight to one service at once; events arriving
   * while they are wait and go together in the next one (micro-batching, docs/adr/0005-realtime.md).
   */
  @EnvNumber() @IsInt() @Min(1) @Max(64) SOCKET_EVENT_REQUESTS_IN_FLIGHT = 4;
  /** Most client events in one such request (the services accept at most 64). */
  @EnvNumber() @IsInt() @Min(1) @Max(64) SOCKET_EVENT_BATCH_MAX = 64;
  /** How often the sockets' sessions are looked up again, in case a revocation notice was lost. */
  @EnvNumber() @IsInt() @Min(100) SOCKET_SESSION_RECHECK_MS = 30_000;
  /** A socket that reconnects within this window gets the pushes it missed (connection state recovery). */
  @EnvNumber() @IsInt() @Min(0) SOCKET_RECOVERY_WINDOW_MS = 2 * 60_000;
}

// The URL variables are validated like declared fields: config validation whitelists decorated
// properties only.
for (const service of SERVICE_REGISTRY) IsUrl(url)(GatewayEnv.prototype, service.urlVariable);

/** The deadline of a whole upload of `bytes` bytes (declared, or the upload limit when chunked). */
export function uploadDeadlineMs(env: GatewayEnv, bytes: number): number {
  return env.UPLOAD_BODY_BASE_MS + Math.ceil((bytes * 1000) / env.UPLOAD_MIN_BYTES_PER_SECOND);
}
