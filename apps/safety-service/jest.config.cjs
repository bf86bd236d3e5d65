module.exports = { ...require('../../jest.preset.js'), displayName: 'safety-service', rootDir: __dirname };
