// Integration tests start processes and databases: one suite at a time, generous timeouts.
module.exports = { ...require('../../jest.preset.js'), displayName: 'seed', rootDir: __dirname, testTimeout: 300000 };
