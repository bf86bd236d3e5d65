import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const ece: { decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer } = require('http_ece');
import type { PushPayload, PushSubscriptionDto } from '@mate/contracts';

/** A request the stand-in received. */
export interface ReceivedPush {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A self-signed certificate for 127.0.0.1 and localhost (openssl), valid for a day. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'push-stand-in-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A stand-in for the browser vendor's push service (FCM, Mozilla's autopush, ...): an HTTPS
 * server on 127.0.0.1 that takes pushes as RFC 8030 says (POST to the subscription's endpoint,
 * 201) and keeps what it got. A path can be made to answer another status (410: the
 * subscription expired). The service trusts its certificate through PUSH_TLS_OPTIONS.
 */
export class PushServiceStandIn {
  private server: https.Server | null = null;
  private readonly tls = selfSignedCertificate();
  readonly received: ReceivedPush[] = [];
  /** Status to answer per path (default 201). */
  readonly statusOf = new Map<string, number>();
  port = 0;

  get certificate(): string {
    return this.tls.cert;
  }

  async start(): Promise<void> {
    const server = https.createServer({ key: this.tls.key, cert: this.tls.cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(this.statusOf.get(path) ?? 201).end();
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    server?.closeAllConnections();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** What the stand-in received at a device's endpoint. */
  receivedBy(device: Browser): ReceivedPush[] {
    return this.received.filter((r) => r.path === device.path);
  }
}

/**
 * A browser's side of a subscription, as the test generates it: a P-256 key pair and an auth
 * secret (what `PushManager.subscribe` makes), and an endpoint on the stand-in.
 */
export class Browser {
  readonly ecdh: ECDH = createECDH('prime256v1');
  readonly auth = randomBytes(16);
  readonly path = `/push/${randomUUID()}`;

  constructor(private readonly standIn: PushServiceStandIn) {
    this.ecdh.generateKeys();
  }

  get endpoint(): string {
    return `https://127.0.0.1:${this.standIn.port}${this.path}`;
  }

  subscription(): PushSubscriptionDto {
    return {
      endpoint: this.endpoint,
      expirationTime: null,
      keys: { p256dh: this.ecdh.getPublicKey().toString('base64url'), auth: this.auth.toString('base64url') },
    };
  }

  /** Decrypts a push as the browser does (RFC 8291, aes128gcm) with this subscription's keys. */
  decrypt(push: ReceivedPush): PushPayload {
    const plain = ece.decrypt(push.body, {
      version: 'aes128gcm',
      privateKey: this.ecdh,
      authSecret: this.auth.toString('base64url'),
    });
    return JSON.parse(plain.toString('utf8')) as PushPayload;
  }

  /** Every push this device got, decrypted, oldest first. */
  pushes(): PushPayload[] {
    return this.standIn.receivedBy(this).map((p) => this.decrypt(p));
  }
}
