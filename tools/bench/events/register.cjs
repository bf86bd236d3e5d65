// Loads TypeScript sources through @swc-node/register with the workspace's path aliases (the
// bench runs the services from source: no build step), as tools/events/events.cjs does.
const Module = require('node:module');
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.json');
require('@swc-node/register');
// Node tries extensions in registration order: `./services` must load services.ts, not the JSON.
const json = Module._extensions['.json'];
delete Module._extensions['.json'];
Module._extensions['.json'] = json;
