// The deployment's word to the app it serves, given at run time rather than baked into the build:
// where the gateway is (API_ORIGIN, which the CSP allows too) and where the other web app is
// (MEMBER_WEB_URL for the admin app's "back to Mate", ADMIN_WEB_URL for the member app's /admin
// routes). Each setting that is set becomes a `<meta name="mate:<name>" content="...">` in
// index.html, which the apps read before what their build was told (apps/web/src/app/api-base.ts,
// apps/admin-web/src/app/origins.ts). So one image serves any host and port: the e2e run's
// containers sit beside a running `npm start` on ports of their own.
//
// The page is made once at start-up, with its brotli and gzip forms, and served from memory.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { originOf } from './security-headers.mjs';

/** Each setting: its meta name, and how a value is checked (a malformed one stops the start). */
const SETTINGS = {
  apiOrigin: { meta: 'mate:api-origin', parse: originOf },
  memberWebUrl: { meta: 'mate:member-web-url', parse: webUrlOf },
  adminWebUrl: { meta: 'mate:admin-web-url', parse: webUrlOf },
};

function webUrlOf(value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`not a URL: ${value}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) URL: ${value}`);
  if (url.username || url.password || url.search || url.hash) throw new Error(`a web app URL has no credentials, query or fragment: ${value}`);
  return url.href.replace(/\/+$/, '');
}

const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * index.html with the settings that are set (options: { apiOrigin?, memberWebUrl?, adminWebUrl? })
 * as meta tags right after `<meta charset>`, in each encoding with its own ETag; or null when none
 * is set (the file on disk is served as built).
 */
export function settledPage(root, options) {
  const tags = Object.entries(SETTINGS)
    .filter(([key]) => options[key])
    .map(([key, { meta, parse }]) => `<meta name="${meta}" content="${escapeAttribute(parse(options[key]))}">`);
  if (!tags.length) return null;
  const html = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  const anchor = /<meta\s+charset=[^>]*>/i.exec(html) ?? /<head(\s[^>]*)?>/i.exec(html);
  const at = anchor ? anchor.index + anchor[0].length : 0;
  const page = Buffer.from(`${html.slice(0, at)}${tags.join('')}${html.slice(at)}`);
  const variant = (body) => ({ body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` });
  return {
    identity: variant(page),
    br: variant(zlib.brotliCompressSync(page, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })),
    gzip: variant(zlib.gzipSync(page, { level: 9 })),
  };
}
