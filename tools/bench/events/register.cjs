// Loads the bench's own TypeScript (the runner and the consumer) through @swc-node/register with
// the workspace's path aliases, as tools/events/events.cjs does.
const path = require('node:path');

process.env.SWC_NODE_PROJECT ??= path.join(__dirname, 'tsconfig.json');
require('@swc-node/register');
