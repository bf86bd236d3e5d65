// The preset is a workspace-root file, not a project, so the module-boundary rule does not apply.
// eslint-disable-next-line @nx/enforce-module-boundaries
const preset = require('../../jest.preset.js');

module.exports = { ...preset, displayName: 'auth-service', rootDir: __dirname };
