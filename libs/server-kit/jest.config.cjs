// forceExit: the guard's Redis-outage suite (guard-per-app.integration-spec.ts) kills and restarts
// a redis-server under a running service. About one close in five, BullMQ's worker close never
// settles there; the kit's QueueWorker now bounds it and cuts the worker's connections
// (WORKER_CLOSE_TIMEOUT_MS), so the suite passes, but BullMQ can still keep a handle of that
// abandoned close open, and Jest would wait for it forever after the last test.
module.exports = { ...require('../../jest.preset.js'), displayName: 'server-kit', rootDir: __dirname, forceExit: true };
