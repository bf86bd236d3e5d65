// The backup test migrates every service's database, starts its own PostgreSQL server and runs
// the scripts as child processes: one suite, a generous timeout.
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'backup',
  rootDir: __dirname,
  testTimeout: 300000,
};
