#!/usr/bin/env node
// `npm run events -- <command>`: runs the TypeScript CLI through @swc-node/register, with the
// workspace's path aliases, so it needs no build step (docs/adr/0008-event-operations.md).
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.cli.json');
require('@swc-node/register');
require('./src/main.ts');
