#!/usr/bin/env node
// `npm run chaos` and `npm run soak` (tools/chaos/README.md): the TypeScript sources loaded through
// @swc-node/register with the workspace's path aliases; the apps must be built (dist/apps).
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.spec.json');
require('@swc-node/register');
require('./src/cli.ts');
