module.exports = { ...require('../../jest.preset.js'), displayName: 'chat-service', rootDir: __dirname };
