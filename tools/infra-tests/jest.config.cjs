// The workspace preset is shared configuration, not a module dependency between projects.
// 60 s per test, twice the preset's: several specs start Node processes that open a connection to
// every service database (gdpr verify took 1.7 s quiet and over 5 s under CI's load, when
// tools/generators runs this project on its copy beside the other suites).
module.exports = { ...require('../../jest.preset.js'), displayName: 'infra-tests', rootDir: __dirname, testTimeout: 60_000 };
