/**
 * The flags every journey's Chromium runs with: headless as root, and nothing that phones home
 * (playwright.config.ts; the call journey's loopback browser adds its own).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
