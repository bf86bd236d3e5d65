// Runs a service's main.ts from source in a child process (the two-replica test): SWC compiles
// TypeScript, tsconfig-paths resolves the @mate/* aliases of tsconfig.base.json.
require('@swc-node/register');
require('tsconfig-paths/register');

// Node tries `.json` before extensions added later, so `./services` would load contracts'
// services.json instead of services.ts; put `.ts` ahead of them, as Jest's resolver does.
const Module = require('node:module');
for (const ext of ['.json', '.node']) {
  const loader = Module._extensions[ext];
  delete Module._extensions[ext];
  Module._extensions[ext] = loader;
}
