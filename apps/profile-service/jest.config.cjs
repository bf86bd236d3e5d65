module.exports = { ...require('../../jest.preset.js'), displayName: 'profile-service', rootDir: __dirname };
