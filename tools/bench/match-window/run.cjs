#!/usr/bin/env node
// `npm run bench:match-window`: from a like's matched: true to the first message chat accepts. See tools/bench/README.md.
// Loads the TypeScript sources through @swc-node/register with the workspace's path aliases.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.json');
require('@swc-node/register');
require('./bench.ts');
