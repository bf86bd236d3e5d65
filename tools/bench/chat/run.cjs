#!/usr/bin/env node
// `npm run bench:chat`: chat delivery through the gateway against a bare socket.io relay. See tools/bench/README.md.
// Loads the TypeScript sources through @swc-node/register with the workspace's path aliases.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.json');
require('@swc-node/register');
require('./bench.ts');
