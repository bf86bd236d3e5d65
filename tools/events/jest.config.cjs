// Integration tests start services and queues against real PostgreSQL and Redis: one at a time.
module.exports = { ...require('../../jest.preset.js'), displayName: 'events-cli', rootDir: __dirname, testTimeout: 120000 };
