import { startRunContainers } from './lib/infra';

/**
 * Jest `globalSetup`: one PostgreSQL and Redis container pair for the whole run when the suites run
 * on containers (TESTCONTAINERS, docs/adr/0021); nothing otherwise.
 *   jest -c <project>/jest.config.cjs --globalSetup libs/testing/src/jest-global-setup.ts \
 *        --globalTeardown libs/testing/src/jest-global-teardown.ts
 */
export default startRunContainers;
