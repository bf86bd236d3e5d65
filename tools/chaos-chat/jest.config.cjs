// The chaos test starts its own processes, redis-server and database: one suite, a generous timeout.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'chaos-chat',
  rootDir: __dirname,
  testTimeout: 180000,
};
