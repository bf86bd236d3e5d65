module.exports = { ...require('../../jest.preset.js'), displayName: 'matching-model', rootDir: __dirname };
