import type { Logger } from 'pino';
import { ManualClock } from '@mate/server-kit';
import { CallEnv } from '../../call.env';
import type { CallRepository } from '../call.repository';
import type { CallNotifier } from '../call-notifier';
import type { CallPresence } from '../call-presence';
import { CallSweeper } from '../call-sweeper';
import type { CallsService } from '../calls.service';

/**
 * The sweeper's timer runs where workers run: a replica with WORKERS=on sweeps every interval; an
 * API-only replica and a one-off command (`main.js migrate`, which sets WORKERS=off and may run
 * before the call table exists) never sweep.
 */
describe('CallSweeper timer', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  function sweeperWith(workers: 'on' | 'off') {
    const env = Object.assign(new CallEnv(), { WORKERS: workers, CALL_SWEEP_INTERVAL_MS: 1_000 });
    const endInTransaction = jest.fn().mockResolvedValue([]);
    const activeMembers = jest.fn().mockResolvedValue([]);
    const sweeper = new CallSweeper(
      { activeMembers } as unknown as CallRepository,
      { endedForBoth: jest.fn() } as unknown as CallNotifier,
      { endInTransaction } as unknown as CallsService,
      env,
      new ManualClock(new Date()),
      { onlineOf: jest.fn().mockResolvedValue(new Set()) } as unknown as CallPresence,
      { warn: jest.fn() } as unknown as Logger,
    );
    return { sweeper, endInTransaction };
  }

  it('sweeps every interval with WORKERS=on', async () => {
    const { sweeper, endInTransaction } = sweeperWith('on');
    sweeper.onModuleInit();
    await jest.advanceTimersByTimeAsync(3_000);
    expect(endInTransaction.mock.calls.length).toBeGreaterThanOrEqual(2);
    await sweeper.onApplicationShutdown();
  });

  it('never sweeps with WORKERS=off (API-only replicas, migrate and other one-off commands)', async () => {
    const { sweeper, endInTransaction } = sweeperWith('off');
    sweeper.onModuleInit();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(endInTransaction).not.toHaveBeenCalled();
    await sweeper.onApplicationShutdown();
  });
});
