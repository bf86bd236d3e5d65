module.exports = { ...require('../../jest.preset.js'), displayName: 'generators', rootDir: __dirname, testTimeout: 240_000 };
