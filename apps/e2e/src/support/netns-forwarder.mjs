#!/usr/bin/env node
// Runs INSIDE the browser's loopback-only network namespace (started by chromium-netns.sh): listens
// on 127.0.0.1:<port> and [::1]:<port> for each port in MATE_NETNS_PORTS and pipes every connection
// to the Unix socket <MATE_NETNS_DIR>/<port>.sock. Filesystem Unix sockets cross network namespaces
// (TCP does not), and the test process listens on them and pipes on to the real platform
// (loopback-browser.ts). Writes <dir>/ready once listening; exits when the browser (pid
// MATE_NETNS_BROWSER_PID, the shell that execs it) is gone.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const dir = process.env.MATE_NETNS_DIR;
const ports = (process.env.MATE_NETNS_PORTS ?? '').split(',').filter(Boolean).map(Number);
const browserPid = Number(process.env.MATE_NETNS_BROWSER_PID);
if (!dir || ports.length === 0 || !browserPid) {
  process.stderr.write(
    'netns-forwarder: MATE_NETNS_DIR, MATE_NETNS_PORTS and MATE_NETNS_BROWSER_PID are required\n',
  );
  process.exit(2);
}

function forward(client, port) {
  const upstream = net.connect({ path: path.join(dir, `${port}.sock`) });
  client.pipe(upstream).pipe(client);
  const drop = () => {
    client.destroy();
    upstream.destroy();
  };
  client.on('error', drop);
  upstream.on('error', drop);
}

function listen(port, host) {
  return new Promise((resolve, reject) => {
    const server = net.createServer((client) => forward(client, port));
    server.once('error', reject);
    server.listen({ port, host, ipv6Only: host === '::1' }, () => resolve(server));
  });
}

try {
  await Promise.all(ports.flatMap((port) => [listen(port, '127.0.0.1'), listen(port, '::1')]));
} catch (e) {
  process.stderr.write(`netns-forwarder: cannot listen inside the namespace: ${e.message}\n`);
  process.exit(1);
}
writeFileSync(path.join(dir, 'ready'), String(process.pid));

// The namespace lives as long as the browser; so does this forwarder.
setInterval(() => {
  try {
    process.kill(browserPid, 0);
  } catch {
    process.exit(0);
  }
}, 500);
