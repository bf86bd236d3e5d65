#!/usr/bin/env node
// `npm run events -- <command>`: runs the TypeScript CLI through @swc-node/register, with the
// workspace's path aliases, so it needs no build step (docs/adr/0008-event-operations.md).
const Module = require('node:module');
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.cli.json');
require('@swc-node/register');
// Node tries extensions in registration order, so `./services` would load contracts'
// services.json instead of services.ts: try the TypeScript extensions before JSON.
const json = Module._extensions['.json'];
delete Module._extensions['.json'];
Module._extensions['.json'] = json;
require('./src/main.ts');
