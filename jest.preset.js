// Shared Jest settings: SWC transpiles TypeScript (3x faster than ts-jest) with the
// decorator metadata NestJS needs; path aliases come from tsconfig.base.json.
const path = require('node:path');
const fs = require('node:fs');

const root = __dirname;
const swcrc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8'));

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = path.join(root, target);
}

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)sx?$': ['@swc/jest', { ...swcrc, swcrc: false }] },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
  moduleNameMapper,
  testMatch: ['**/?(*.)+(spec|integration-spec).ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  clearMocks: true,
  // 30 s per test and hook, not Jest's 5 s: a guard against a hang, never a speed target (those
  // are benchmarks, tools/bench). Integration specs start and close Nest apps on real PostgreSQL,
  // Redis and BullMQ; with CI's two cores shared by two projects' suites, closing one took over
  // 5 s (notification-service's openapi spec, 2026-11-24).
  testTimeout: 30_000,
};
