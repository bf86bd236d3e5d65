// The API journeys run against the platform that run.mjs started (E2E_GATEWAY_URL, E2E_MAILDEV_URL).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'e2e-api',
  rootDir: __dirname,
  testMatch: ['**/src/api/**/*.e2e-spec.ts'],
  testTimeout: 30000,
};
