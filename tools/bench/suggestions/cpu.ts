// CPU per request of each process on the path of bench:suggestions: the gateway, matching-service
// and the PostgreSQL backends serving the bench database's connections, from /proc/<pid>/stat
// (utime + stime, through lib/run's processCpuMs). Redis is shared with other work on this
// machine: not counted. PostgreSQL runs here too; where /proc cannot be read the output says so.
import { accessSync, constants, readFileSync } from 'node:fs';
import type { Client } from 'pg';
import { processCpuMs } from '../lib/run';

/** CPU milliseconds per answered request of each process of the path; null where /proc was not readable. */
export interface PathCpu {
  gateway: number | null;
  matching: number | null;
  postgres: number | null;
  /** PostgreSQL client backends of the bench database seen during the phase. */
  backends: number;
  /** Of them, the ones that ended before the phase did (counted up to the last poll that saw them). */
  backendsEnded: number;
  /** What could not be read, in words. */
  unreadable: string[];
  /**
   * Read and write system calls per answered request of the gateway and matching-service
   * (/proc/<pid>/io syscr + syscw): round trips to PostgreSQL and Redis and the HTTP exchange, a
   * count the machine's other load does not blur as it blurs CPU time. Null where not readable.
   */
  syscallsPerRequest: { gateway: number | null; matching: number | null };
}

/** Read and write system calls of a process so far (/proc/<pid>/io), or null. */
function processSyscalls(pid: number): number | null {
  try {
    const io = readFileSync(`/proc/${pid}/io`, 'utf8');
    const reads = /^syscr: (\d+)$/m.exec(io);
    const writes = /^syscw: (\d+)$/m.exec(io);
    return reads && writes ? Number(reads[1]) + Number(writes[1]) : null;
  } catch {
    return null;
  }
}

/** The pids of the processes on the path. */
export interface PathPids {
  gateway: number;
  matching: number;
}

/** Backends may come and go (the pool closes idle connections): they are polled this often. */
const POLL_MS = 1000;

/** Without /proc (not Linux) a live process would read as gone. */
const HAS_PROC = (() => {
  try {
    accessSync('/proc/self/stat', constants.R_OK);
    return true;
  } catch {
    return false;
  }
})();

/** Whether /proc/<pid>/stat can be read: yes, the process is gone, or why not. */
function procState(pid: number): 'readable' | 'gone' | string {
  try {
    accessSync(`/proc/${pid}/stat`, constants.R_OK);
    return 'readable';
  } catch (e) {
    if (!HAS_PROC) return 'no /proc on this machine';
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'gone' : `not readable: ${code ?? 'unknown error'}`;
  }
}

const perRequest = (ms: number, requests: number) =>
  requests > 0 ? Math.round((ms / requests) * 100) / 100 : null;

/**
 * Measures the CPU each process of the path spends on a phase. `db` is the bench's own connection
 * to the bench database (idle during the phases): it finds the backends and is left out of them.
 */
export class PathCpuMeter {
  constructor(
    private readonly db: Client,
    private readonly database: string,
    private readonly pids: PathPids,
  ) {}

  /** Runs `phase` and answers its result with the CPU ms per request of each process of the path. */
  async measure<T extends { requests: number }>(
    phase: () => Promise<T>,
  ): Promise<T & { cpuMsPerRequest: PathCpu }> {
    const node = (pid: number) => (procState(pid) === 'readable' ? processCpuMs(pid) : null);
    const gatewayBefore = node(this.pids.gateway);
    const matchingBefore = node(this.pids.matching);
    const syscallsBefore = { gateway: processSyscalls(this.pids.gateway), matching: processSyscalls(this.pids.matching) };
    /** CPU of each backend when first seen (0 for one that connected during the phase) and when last seen. */
    const first = new Map<number, number>();
    const last = new Map<number, number>();
    const unreadable = new Map<number, string>();
    const poll = async (initial: boolean) => {
      const { rows } = await this.db.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        [this.database],
      );
      for (const { pid } of rows) {
        const ms = processCpuMs(pid);
        const state = procState(pid);
        if (state === 'gone') continue;
        if (state !== 'readable') {
          unreadable.set(pid, state);
          continue;
        }
        if (!first.has(pid)) first.set(pid, initial ? ms : 0);
        last.set(pid, ms);
      }
    };
    await poll(true);
    let polling = Promise.resolve();
    let pollFailure: string | null = null;
    const timer = setInterval(() => {
      polling = polling
        .then(() => poll(false))
        .catch((e: unknown) => void (pollFailure ??= e instanceof Error ? e.message : String(e)));
    }, POLL_MS);
    let result: T;
    try {
      result = await phase();
    } finally {
      clearInterval(timer);
      await polling;
    }
    const gatewayAfter = node(this.pids.gateway);
    const matchingAfter = node(this.pids.matching);
    const syscallsAfter = { gateway: processSyscalls(this.pids.gateway), matching: processSyscalls(this.pids.matching) };
    await poll(false);

    const ended = [...last.keys()].filter((pid) => procState(pid) === 'gone').length;
    const postgresMs = [...last].reduce((sum, [pid, ms]) => sum + ms - (first.get(pid) ?? 0), 0);
    const words: string[] = [];
    const named = (name: string, pid: number) => `${name} (pid ${pid}: ${procState(pid)})`;
    if (gatewayBefore === null || gatewayAfter === null) words.push(named('gateway', this.pids.gateway));
    if (matchingBefore === null || matchingAfter === null)
      words.push(named('matching-service', this.pids.matching));
    for (const [pid, why] of unreadable) words.push(`PostgreSQL backend (pid ${pid}: ${why})`);
    if (pollFailure) words.push(`PostgreSQL backends (polling failed: ${pollFailure})`);
    const delta = (before: number | null, after: number | null) =>
      before === null || after === null ? null : perRequest(after - before, result.requests);
    return {
      ...result,
      cpuMsPerRequest: {
        gateway: delta(gatewayBefore, gatewayAfter),
        matching: delta(matchingBefore, matchingAfter),
        // A backend that could not be read would be missing from the sum: then there is no sum.
        postgres: unreadable.size > 0 || pollFailure ? null : perRequest(postgresMs, result.requests),
        backends: last.size,
        backendsEnded: ended,
        unreadable: words,
        syscallsPerRequest: {
          gateway: delta(syscallsBefore.gateway, syscallsAfter.gateway),
          matching: delta(syscallsBefore.matching, syscallsAfter.matching),
        },
      },
    };
  }
}
