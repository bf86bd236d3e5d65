// Loads TypeScript sources through @swc-node/register with the workspace's path aliases (the
// bench runs the services from source: no build step), as tools/events/events.cjs does.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.json');
require('@swc-node/register');
