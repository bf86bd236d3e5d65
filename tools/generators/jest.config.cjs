// The workspace preset is shared configuration, not a module dependency between projects.
// eslint-disable-next-line @nx/enforce-module-boundaries
module.exports = { ...require('../../jest.preset.js'), displayName: 'generators', rootDir: __dirname, testTimeout: 240_000 };
