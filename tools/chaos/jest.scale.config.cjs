// The short scale check (npm test's stage of its own, tools/scripts/test.mjs): twenty processes of
// the scaled topology, so never beside the other suites.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'scale',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/scale/**/*.integration-spec.ts'],
  testTimeout: 900000,
};
