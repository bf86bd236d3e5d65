module.exports = { ...require('../../jest.preset.js'), displayName: 'matching-service', rootDir: __dirname };
