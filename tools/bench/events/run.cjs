#!/usr/bin/env node
// `npm run bench:events`: outbox-to-handled lag at a steady event rate. See tools/bench/README.md.
require('./register.cjs');
require('./bench.ts');
