#!/usr/bin/env node
// `npm run bench:matching-quality`: mutual matches and exposure of four rankings (the last ranks by
// the hidden tastes themselves) in a simulated population with hidden tastes. See tools/bench/README.md.
// Loads the TypeScript sources through @swc-node/register with the workspace's path aliases.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.json');
require('@swc-node/register');
require('./bench.ts');
