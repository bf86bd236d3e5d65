import { CLOCK, ManualClock, PresenceReader } from '@mate/server-kit';
import {
  call,
  startGatewayTestBed,
  startServiceTestBed,
  type GatewayTestBed,
  type ServiceTestBed,
  type TestDatabaseSource,
  type TestEnv,
  type TestMember,
} from '@mate/server-kit/testing';
import { AppModule } from '../app.module';
import { CALL_PRESENCE, type CallPresence } from '../call/call-presence';
import { CallSweeper } from '../call/call-sweeper';

export { ackError, aProfile, type MemberConnection, type MemberSocket } from '@mate/server-kit/testing';

export type CallMember = TestMember;

/**
 * The real presence (the kit's PresenceReader over what the real gateway records), minus the
 * members a test holds offline while their sockets stay connected.
 */
export class TestPresence implements CallPresence {
  readonly offline = new Set<string>();
  reader: PresenceReader | null = null;
  async onlineOf(userIds: string[]): Promise<Set<string>> {
    if (!this.reader) throw new Error('presence reader not ready');
    const online = await this.reader.onlineOf(userIds);
    return new Set([...online].filter((id) => !this.offline.has(id)));
  }
}

export interface CallTestBed extends Omit<GatewayTestBed, 'match'> {
  service: ServiceTestBed;
  clock: ManualClock;
  presence: TestPresence;
  sweeper: CallSweeper;
  match(a: CallMember, b: CallMember, pairVersion?: number): Promise<string>;
  /** `api` GET with the answer's headers too. */
  apiWithHeaders<T = Record<string, unknown>>(
    member: CallMember | null,
    path: string,
  ): Promise<{ status: number; body: T; headers: Headers }>;
}

/**
 * call-service on the service test bed (real PostgreSQL and Redis, a manual clock, the sweeper's
 * timer off so tests sweep when they choose) and the real gateway in front of it in its own
 * process (the kit's startGatewayTestBed): sockets and REST go the way the app goes, events
 * through the real consumer.
 */
export async function startCallTestBed(
  label: string,
  { env = {}, database }: { env?: TestEnv; database?: TestDatabaseSource } = {},
): Promise<CallTestBed> {
  const clock = new ManualClock(new Date());
  const presence = new TestPresence();
  const service = await startServiceTestBed((e) => AppModule.forRoot(e), {
    label,
    database,
    env: { CALL_SWEEP_INTERVAL_MS: '0', CALL_SIGNALS_PER_10_SECONDS: '100000', ...env },
    overrides: [
      { provide: CLOCK, useValue: clock },
      { provide: CALL_PRESENCE, useValue: presence },
    ],
  });
  const front = await startGatewayTestBed(service, { CALL_SERVICE_URL: service.url });
  presence.reader = service.app.get(PresenceReader);

  const bed: CallTestBed = {
    ...front,
    service,
    clock,
    presence,
    sweeper: service.app.get(CallSweeper),
    match: (a, b, pairVersion) => front.match(a, b, { pairVersion }),
    apiWithHeaders: (member, path) => call(front.gateway.url, 'GET', path, { token: member?.token }),
  };
  return bed;
}
