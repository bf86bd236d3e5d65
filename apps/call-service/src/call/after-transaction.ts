import type { EntityManager } from 'typeorm';

/**
 * Runs `work` once the transaction of `manager` is over (TypeORM's query runner has no commit
 * hook); `work` reads again what was committed.
 */
export function afterTransaction(manager: EntityManager, work: () => Promise<unknown>): void {
  const qr = manager.queryRunner;
  const started = Date.now();
  const tick = () => {
    if (qr?.isTransactionActive && Date.now() - started < 30_000) {
      setTimeout(tick, 5);
      return;
    }
    void work();
  };
  setTimeout(tick, 0);
}
