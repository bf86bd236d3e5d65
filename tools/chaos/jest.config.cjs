// The short chaos run starts the whole platform, its own redis-server and databases: one suite, a generous timeout.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'chaos',
  rootDir: __dirname,
  testTimeout: 600000,
};
