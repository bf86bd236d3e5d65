#!/usr/bin/env node
/**
 * Makes the installable app's icons (public/icons/, listed in public/manifest.webmanifest) from
 * the logo in public/favicon.svg, so the home-screen icon is the same heart as the tab's.
 * Run it again after changing the logo: `node apps/web/tools/make-icons.mjs`; the PNGs are
 * committed (the build downloads and draws nothing).
 *
 * - `icon-192.png`, `icon-512.png` (purpose "any"): the favicon as it is, rounded corners and all.
 * - `icon-maskable-512.png` (purpose "maskable"): the brand colour to every edge and the heart
 *   inside the centre circle of 80 % that every launcher mask keeps (the "safe zone").
 * - `apple-touch-icon-180.png`: full bleed too (iOS rounds the corners itself and would paint
 *   transparent ones black).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));
const logo = readFileSync(`${publicDir}favicon.svg`, 'utf8');

const background = /<rect[^>]*fill="(#[0-9a-f]{3,6})"/i.exec(logo)?.[1];
const heart = /<path[^>]*\/>/i.exec(logo)?.[0];
if (!background || !heart) throw new Error('favicon.svg no longer has the rect and the heart this script expects');

/** The heart's box in the logo's 32-unit grid is x 4.6–27.4, y 7–25.3: its centre is (16, 16.15). */
const HEART_CENTRE = { x: 16, y: 16.15 };

/** A full-bleed square of the brand colour with the heart scaled about its centre. */
function fullBleed(heartScale) {
  const { x, y } = HEART_CENTRE;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" fill="${background}"/>
<g transform="translate(${x} ${y}) scale(${heartScale}) translate(${-x} ${-y})">${heart}</g>
</svg>`;
}

const icons = [
  { file: 'icon-192.png', size: 192, svg: logo },
  { file: 'icon-512.png', size: 512, svg: logo },
  // 0.7: the heart is 16 of 32 units wide, its corners 0.32 of the size from the centre (< 0.4).
  { file: 'icon-maskable-512.png', size: 512, svg: fullBleed(0.7) },
  { file: 'apple-touch-icon-180.png', size: 180, svg: fullBleed(0.8) },
];

for (const { file, size, svg } of icons) {
  await sharp(Buffer.from(svg), { density: (72 * size) / 32 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(`${publicDir}icons/${file}`);
  console.log(`public/icons/${file} ${size}×${size}`);
}
