#!/usr/bin/env node
// Container HEALTHCHECK: GET http://127.0.0.1:$PORT<path>, exit 0 on a 2xx answer within 4 s.
// Path: argv[2], else HEALTHCHECK_PATH, else /health for a web app (dist has index.html and no
// main.js) and /health/live for a service. Compose passes /health/ready for `service_healthy`.
'use strict';
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

const dist = process.env.APP_DIST || path.join('/app/dist/apps', process.env.APP || '');
const isWeb = !fs.existsSync(path.join(dist, 'main.js')) && fs.existsSync(path.join(dist, 'index.html'));
const probePath = process.argv[2] || process.env.HEALTHCHECK_PATH || (isWeb ? '/health' : '/health/live');
const port = Number(process.env.PORT || 3000);

const req = http.get({ host: '127.0.0.1', port, path: probePath, timeout: 4000 }, (res) => {
  res.resume();
  const ok = res.statusCode >= 200 && res.statusCode < 300;
  if (!ok) process.stderr.write(`healthcheck: GET ${probePath} -> ${res.statusCode}\n`);
  process.exit(ok ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error(`GET ${probePath} timed out`)));
req.on('error', (err) => {
  process.stderr.write(`healthcheck: ${err.message}\n`);
  process.exit(1);
});
