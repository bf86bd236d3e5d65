import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS } from './chromium-flags';

/**
 * Chromium's fake camera and microphone (a test pattern and a beep), permission prompts answered
 * yes, and loopback ICE candidates, which Chromium otherwise drops: in a namespace with only
 * loopback, without this flag a peer connection has no candidates at all.
 */
const CALL_ARGS = [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  '--allow-loopback-in-peer-connection',
];

const WRAPPER = path.join(__dirname, 'chromium-netns.sh');

function portOf(url: string): number {
  const u = new URL(url);
  return Number(u.port || (u.protocol === 'https:' ? 443 : 80));
}

/**
 * Host side of the bridge: a Unix socket per port in `dir` that pipes every connection to
 * 127.0.0.1:<port>, where the platform listens.
 */
async function bridge(dir: string, port: number): Promise<net.Server> {
  const server = net.createServer((inside) => {
    const platform = net.connect({ host: '127.0.0.1', port });
    inside.pipe(platform).pipe(inside);
    const drop = () => {
      inside.destroy();
      platform.destroy();
    };
    inside.on('error', drop);
    platform.on('error', drop);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(path.join(dir, `${port}.sock`), resolve);
  });
  return server;
}

function assertUnshareWorks(): void {
  const probe = spawnSync('unshare', ['--net', 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new Error(
      'The call journey runs Chromium in a loopback-only network namespace (`unshare --net`), and this ' +
        `machine refused it: ${(probe.error?.message ?? probe.stderr).trim() || `exit ${probe.status}`}. ` +
        'Run the e2e stage as root (or with CAP_SYS_ADMIN), as CI does.',
    );
  }
}

/**
 * Launches Debian's Chromium (CHROMIUM_PATH) inside a network namespace of its own that has only
 * loopback (chromium-netns.sh), with the fake camera and microphone. A call between two of its
 * pages therefore never leaves loopback. The web app, the gateway and the admin app (E2E_WEB_URL,
 * E2E_GATEWAY_URL, E2E_ADMIN_WEB_URL when set) stay reachable at their usual addresses through
 * Unix-socket bridges, which are removed when the browser closes.
 */
export async function launchLoopbackChromium(): Promise<Browser> {
  assertUnshareWorks();
  const urls = [process.env.E2E_WEB_URL, process.env.E2E_GATEWAY_URL];
  if (urls.some((u) => !u))
    throw new Error('E2E_WEB_URL and E2E_GATEWAY_URL must be set (apps/e2e/run.mjs sets them)');
  const adminWeb = process.env.E2E_ADMIN_WEB_URL;
  const ports = [...new Set([...urls, ...(adminWeb ? [adminWeb] : [])].map((u) => portOf(u as string)))];
  const dir = mkdtempSync(path.join(tmpdir(), 'mate-netns-'));
  const bridges: net.Server[] = [];
  const cleanUp = () => {
    for (const server of bridges) server.close();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) bridges.push(await bridge(dir, port));
    const browser = await chromium.launch({
      executablePath: WRAPPER,
      args: [...CHROMIUM_ARGS, ...CALL_ARGS],
      env: {
        ...process.env,
        CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        MATE_NETNS_DIR: dir,
        MATE_NETNS_PORTS: ports.join(','),
        MATE_NETNS_NODE: process.execPath,
      },
    });
    browser.on('disconnected', cleanUp);
    return browser;
  } catch (e) {
    cleanUp();
    throw e;
  }
}
