// Runs a service's main.ts from source in a child process (the two-replica test): SWC compiles
// TypeScript, tsconfig-paths resolves the @mate/* aliases of tsconfig.base.json.
require('@swc-node/register');
require('tsconfig-paths/register');
