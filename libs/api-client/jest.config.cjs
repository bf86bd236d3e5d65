// The shared preset sits at the workspace root; it is configuration, not a project import.
// eslint-disable-next-line @nx/enforce-module-boundaries
module.exports = { ...require('../../jest.preset.js'), displayName: 'api-client', rootDir: __dirname };
