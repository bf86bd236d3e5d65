// The e2e runner's control of its own platform, for the journeys that stop a service and start it
// again (the deletion of a member while a service is down, issue 12). Loopback only, and each call
// needs the run's random secret: `POST /services/<name>/stop` and `POST /services/<name>/start`
// answer 204 once the service has exited or is ready again.
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';

export async function startPlatformControl(platform) {
  const secret = randomBytes(16).toString('hex');
  const server = createServer(async (req, res) => {
    const match = /^\/services\/([a-z-]+)\/(stop|start)$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match || req.headers.authorization !== `Bearer ${secret}`) {
      res.writeHead(404).end();
      return;
    }
    const [, name, action] = match;
    try {
      await (action === 'stop' ? platform.stopService(name) : platform.startService(name));
      res.writeHead(204).end();
    } catch (e) {
      res.writeHead(409, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(e?.message ?? e) }));
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    secret,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
