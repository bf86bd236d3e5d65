// forceExit: one outage suite's close can leave a reconnecting Redis connection open (see
// guard-per-app.integration-spec.ts); without it Jest would wait forever after the last test.
module.exports = { ...require('../../jest.preset.js'), displayName: 'server-kit', rootDir: __dirname, forceExit: true };
