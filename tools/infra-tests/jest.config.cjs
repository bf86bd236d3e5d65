// The workspace preset is shared configuration, not a module dependency between projects.
module.exports = { ...require('../../jest.preset.js'), displayName: 'infra-tests', rootDir: __dirname };
