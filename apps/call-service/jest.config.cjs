module.exports = { ...require('../../jest.preset.js'), displayName: 'call-service', rootDir: __dirname };
