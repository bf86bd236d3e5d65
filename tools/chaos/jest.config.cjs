// The short chaos run starts the whole platform, its own redis-server and databases: one suite, a generous timeout.
// The short scale check (src/scale) runs in a stage of its own, with jest.scale.config.cjs.
const preset = require('../../jest.preset.js');
module.exports = {
  ...preset,
  displayName: 'chaos',
  rootDir: __dirname,
  testTimeout: 600000,
  testPathIgnorePatterns: [...preset.testPathIgnorePatterns, '/src/scale/'],
};
