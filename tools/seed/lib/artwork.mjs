// SVG pictures for demo photos: stylised portraits and a few kinds of scenes (landscape, city,
// beach, abstract), drawn from gradients and shapes only. No text: fonts may be missing, and
// nothing is downloaded. Every choice comes from the Rng passed in, so a picture is reproducible.

export const PHOTO_KINDS = ['portrait', 'landscape', 'city', 'beach', 'abstract'];

const SKIN = ['#f6d7c3', '#eac0a1', '#dba582', '#c68863', '#a86b48', '#8d5534', '#6b3f24', '#4f2d1a'];
const HAIR = ['#1c1410', '#2e1f16', '#4a2f1d', '#6b4226', '#8a5a33', '#b07a45', '#d6b27a', '#e8d3a4', '#a33b20', '#7a7a7a', '#c9c9c9'];
const CLOTHES = ['#2f4858', '#33658a', '#86bbd8', '#f6ae2d', '#f26419', '#55a630', '#6a4c93', '#c9184a', '#ff8fa3', '#3a3a3a', '#e9ecef', '#14746f', '#b5838d', '#264653'];

const hsl = (h, s, l) => `hsl(${Math.round(((h % 360) + 360) % 360)},${Math.round(s)}%,${Math.round(l)}%)`;

/** A vertical two-stop gradient definition. */
function linear(id, top, bottom, { x2 = 0, y2 = 1 } = {}) {
  return `<linearGradient id="${id}" x1="0" y1="0" x2="${x2}" y2="${y2}"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`;
}

/** Soft round lights (bokeh), drawn with radial gradients rather than a blur filter (cheaper). */
function bokeh(rng, w, h, count, hue) {
  let defs = '';
  let shapes = '';
  for (let i = 0; i < count; i++) {
    const id = `b${i}`;
    const color = hsl(hue + rng.range(-40, 40), rng.range(40, 90), rng.range(60, 90));
    defs += `<radialGradient id="${id}"><stop offset="0" stop-color="${color}" stop-opacity="${rng.range(0.25, 0.6).toFixed(2)}"/><stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient>`;
    shapes += `<circle cx="${rng.int(0, w)}" cy="${rng.int(0, h)}" r="${rng.int(w / 12, w / 4)}" fill="url(#${id})"/>`;
  }
  return { defs, shapes };
}

/** Hair styles by how a portrait presents, so a member's photos fit the profile. */
const STYLE_WEIGHTS = {
  feminine: [['short', 12], ['long', 46], ['curly', 20], ['bun', 20], ['buzz', 2]],
  masculine: [['short', 50], ['long', 6], ['curly', 12], ['bun', 2], ['buzz', 20], ['bald', 10]],
  any: [['short', 30], ['long', 30], ['curly', 14], ['bun', 10], ['buzz', 10], ['bald', 6]],
};

function portrait(rng, w, h, { presentation = null } = {}) {
  const hue = rng.int(0, 359);
  const skin = rng.pick(SKIN);
  const hair = rng.pick(HAIR);
  const shirt = rng.pick(CLOTHES);
  const cx = w / 2 + rng.range(-w * 0.08, w * 0.08);
  const headY = h * rng.range(0.36, 0.42);
  const headRx = w * rng.range(0.15, 0.18);
  const headRy = headRx * rng.range(1.2, 1.32);
  const style = rng.weighted(STYLE_WEIGHTS[presentation ?? 'any']);
  const lights = bokeh(rng, w, h, rng.int(4, 9), hue);
  const top = headY - headRy;
  const shoulderY = headY + headRy * 1.55;

  let hairBack = '';
  let hairFront = '';
  if (style === 'long') {
    const len = h * rng.range(0.2, 0.34);
    hairBack = `<path d="M${cx - headRx * 1.25},${headY} Q${cx - headRx * 1.45},${top - headRy * 0.25} ${cx},${top - headRy * 0.12} Q${cx + headRx * 1.45},${top - headRy * 0.25} ${cx + headRx * 1.25},${headY} L${cx + headRx * 1.35},${headY + len} Q${cx},${headY + len * 1.15} ${cx - headRx * 1.35},${headY + len} Z" fill="${hair}"/>`;
  }
  if (style === 'curly') {
    for (let i = 0; i < 14; i++) {
      const a = Math.PI * (0.95 + (i / 13) * 1.1);
      const r = headRx * rng.range(0.32, 0.45);
      hairBack += `<circle cx="${cx + Math.cos(a) * headRx * 1.05}" cy="${headY + Math.sin(a) * headRy * 0.95}" r="${r}" fill="${hair}"/>`;
    }
  }
  if (style === 'bun') {
    hairBack = `<circle cx="${cx}" cy="${top - headRy * 0.15}" r="${headRx * 0.45}" fill="${hair}"/>`;
  }
  if (style === 'short' || style === 'long' || style === 'bun' || style === 'curly') {
    const part = rng.range(-0.4, 0.4);
    hairFront = `<path d="M${cx - headRx * 1.04},${headY - headRy * 0.05} Q${cx - headRx * 1.1},${top - headRy * 0.12} ${cx + headRx * part},${top - headRy * 0.1} Q${cx + headRx * 1.12},${top - headRy * 0.08} ${cx + headRx * 1.04},${headY - headRy * 0.05} Q${cx + headRx * 0.7},${top + headRy * 0.45} ${cx + headRx * part},${top + headRy * 0.3} Q${cx - headRx * 0.7},${top + headRy * 0.45} ${cx - headRx * 1.04},${headY - headRy * 0.05} Z" fill="${hair}"/>`;
  }
  if (style === 'buzz') {
    hairFront = `<path d="M${cx - headRx},${headY - headRy * 0.15} A${headRx},${headRy} 0 0 1 ${cx + headRx},${headY - headRy * 0.15} Q${cx},${top + headRy * 0.35} ${cx - headRx},${headY - headRy * 0.15} Z" fill="${hair}" opacity="0.85"/>`;
  }

  const eyeY = headY + headRy * 0.05;
  const eyeDx = headRx * 0.38;
  const eye = (x) =>
    `<ellipse cx="${x}" cy="${eyeY}" rx="${headRx * 0.09}" ry="${headRx * 0.06}" fill="#2b211c"/>`;
  const brow = (x, dir) =>
    `<path d="M${x - headRx * 0.16},${eyeY - headRy * 0.16} Q${x},${eyeY - headRy * (0.22 + dir * 0.01)} ${x + headRx * 0.16},${eyeY - headRy * 0.15}" stroke="${hair}" stroke-width="${headRx * 0.05}" fill="none" stroke-linecap="round"/>`;
  const smile = rng.range(0.08, 0.2);
  const mouth = `<path d="M${cx - headRx * 0.28},${headY + headRy * 0.45} Q${cx},${headY + headRy * (0.45 + smile)} ${cx + headRx * 0.28},${headY + headRy * 0.45}" stroke="#8c3b3b" stroke-width="${headRx * 0.06}" fill="none" stroke-linecap="round"/>`;
  const glasses = rng.chance(0.22)
    ? `<g stroke="#222" stroke-width="${headRx * 0.05}" fill="none"><circle cx="${cx - eyeDx}" cy="${eyeY}" r="${headRx * 0.24}"/><circle cx="${cx + eyeDx}" cy="${eyeY}" r="${headRx * 0.24}"/><path d="M${cx - eyeDx + headRx * 0.24},${eyeY} L${cx + eyeDx - headRx * 0.24},${eyeY}"/></g>`
    : '';
  const earrings = rng.chance(presentation === 'feminine' ? 0.45 : presentation === 'masculine' ? 0.08 : 0.25)
    ? `<circle cx="${cx - headRx * 1.0}" cy="${headY + headRy * 0.3}" r="${headRx * 0.07}" fill="#e9c46a"/><circle cx="${cx + headRx * 1.0}" cy="${headY + headRy * 0.3}" r="${headRx * 0.07}" fill="#e9c46a"/>`
    : '';

  return `<defs>${linear('bg', hsl(hue, rng.range(35, 70), rng.range(70, 88)), hsl(hue + rng.range(20, 80), rng.range(30, 60), rng.range(35, 60)))}${linear('shirt', shirt, '#000', { y2: 2.5 })}<radialGradient id="face" cx="0.42" cy="0.38" r="0.75"><stop offset="0" stop-color="#fff" stop-opacity="0.25"/><stop offset="1" stop-color="#000" stop-opacity="0.12"/></radialGradient>${lights.defs}</defs>
<rect width="${w}" height="${h}" fill="url(#bg)"/>${lights.shapes}${hairBack}
<rect x="${cx - headRx * 0.38}" y="${headY + headRy * 0.6}" width="${headRx * 0.76}" height="${shoulderY - headY - headRy * 0.5}" rx="${headRx * 0.2}" fill="${skin}"/>
<rect x="${cx - headRx * 0.38}" y="${headY + headRy * 0.6}" width="${headRx * 0.76}" height="${headRy * 0.35}" fill="#000" opacity="0.12"/>
<path d="M${cx - w * 0.42},${h} C${cx - w * 0.4},${shoulderY} ${cx - w * 0.2},${shoulderY - h * 0.03} ${cx},${shoulderY - h * 0.035} C${cx + w * 0.2},${shoulderY - h * 0.03} ${cx + w * 0.4},${shoulderY} ${cx + w * 0.42},${h} Z" fill="url(#shirt)"/>
<path d="M${cx - headRx * 0.45},${shoulderY - h * 0.035} Q${cx},${shoulderY + h * 0.04} ${cx + headRx * 0.45},${shoulderY - h * 0.035}" fill="${skin}"/>
<ellipse cx="${cx - headRx}" cy="${headY + headRy * 0.08}" rx="${headRx * 0.14}" ry="${headRy * 0.2}" fill="${skin}"/><ellipse cx="${cx + headRx}" cy="${headY + headRy * 0.08}" rx="${headRx * 0.14}" ry="${headRy * 0.2}" fill="${skin}"/>
<ellipse cx="${cx}" cy="${headY}" rx="${headRx}" ry="${headRy}" fill="${skin}"/><ellipse cx="${cx}" cy="${headY}" rx="${headRx}" ry="${headRy}" fill="url(#face)"/>
${hairFront}${eye(cx - eyeDx)}${eye(cx + eyeDx)}${brow(cx - eyeDx, 1)}${brow(cx + eyeDx, -1)}
<path d="M${cx},${eyeY + headRy * 0.08} Q${cx - headRx * 0.1},${headY + headRy * 0.3} ${cx + headRx * 0.04},${headY + headRy * 0.3}" stroke="#000" stroke-opacity="0.18" stroke-width="${headRx * 0.04}" fill="none"/>
${mouth}${glasses}${earrings}`;
}

function landscape(rng, w, h) {
  const hue = rng.int(180, 230);
  const sunset = rng.chance(0.4);
  const skyTop = sunset ? hsl(rng.int(250, 290), 45, 35) : hsl(hue, 70, 55);
  const skyBottom = sunset ? hsl(rng.int(10, 40), 85, 65) : hsl(hue - 10, 60, 85);
  const horizon = h * rng.range(0.5, 0.62);
  let mountains = '';
  for (let layer = 0; layer < 3; layer++) {
    const base = horizon + layer * h * 0.08;
    let d = `M0,${h} L0,${base}`;
    const peaks = rng.int(3, 6);
    for (let i = 0; i <= peaks; i++) {
      const x = (w / peaks) * i;
      d += ` L${x - w / peaks / 2},${base - rng.range(h * 0.05, h * 0.28)} L${x},${base - rng.range(0, h * 0.06)}`;
    }
    d += ` L${w},${h} Z`;
    mountains += `<path d="${d}" fill="${hsl(rng.int(90, 220), rng.range(15, 40), 45 - layer * 12)}"/>`;
  }
  return `<defs>${linear('sky', skyTop, skyBottom)}<radialGradient id="sun"><stop offset="0" stop-color="#fff7d6"/><stop offset="0.5" stop-color="#ffd166" stop-opacity="0.8"/><stop offset="1" stop-color="#ffd166" stop-opacity="0"/></radialGradient></defs>
<rect width="${w}" height="${h}" fill="url(#sky)"/><circle cx="${rng.int(w * 0.15, w * 0.85)}" cy="${horizon - rng.range(h * 0.1, h * 0.35)}" r="${w * rng.range(0.12, 0.2)}" fill="url(#sun)"/>${mountains}`;
}

function city(rng, w, h) {
  const night = rng.chance(0.5);
  const sky = night ? linear('sky', '#0b1d3a', hsl(rng.int(220, 280), 50, 35)) : linear('sky', hsl(rng.int(190, 215), 65, 60), hsl(rng.int(20, 45), 80, 80));
  let buildings = '';
  let x = -rng.int(0, 30);
  while (x < w) {
    const bw = rng.int(w * 0.07, w * 0.16);
    const bh = rng.range(h * 0.2, h * 0.7);
    const shade = night ? rng.int(12, 25) : rng.int(30, 50);
    buildings += `<rect x="${x}" y="${h - bh}" width="${bw}" height="${bh}" fill="${hsl(rng.int(200, 240), 20, shade)}"/>`;
    const lit = night ? 0.45 : 0.12;
    for (let wy = h - bh + 12; wy < h - 14; wy += 22) {
      for (let wx = x + 8; wx < x + bw - 12; wx += 16) {
        if (rng.chance(lit)) buildings += `<rect x="${wx}" y="${wy}" width="7" height="10" fill="${night ? '#ffd37a' : '#dbe9f4'}"/>`;
      }
    }
    x += bw + rng.int(0, 8);
  }
  const moon = night ? `<circle cx="${rng.int(w * 0.15, w * 0.85)}" cy="${h * rng.range(0.1, 0.25)}" r="${w * 0.05}" fill="#f1f1e6"/>` : '';
  return `<defs>${sky}</defs><rect width="${w}" height="${h}" fill="url(#sky)"/>${moon}${buildings}`;
}

function beach(rng, w, h) {
  const sea = h * rng.range(0.45, 0.55);
  const sand = h * rng.range(0.68, 0.78);
  const waterHue = rng.int(175, 205);
  return `<defs>${linear('sky', hsl(rng.int(195, 215), 75, 62), '#f4f1e8')}${linear('sea', hsl(waterHue, 70, 45), hsl(waterHue - 10, 60, 65))}${linear('sand', '#f2d9a6', '#d9b77e')}</defs>
<rect width="${w}" height="${h}" fill="url(#sky)"/><circle cx="${rng.int(w * 0.2, w * 0.8)}" cy="${sea * rng.range(0.25, 0.6)}" r="${w * 0.07}" fill="#fff3c4"/>
<rect y="${sea}" width="${w}" height="${h - sea}" fill="url(#sea)"/>
<path d="M0,${sand} Q${w * 0.3},${sand - h * 0.04} ${w * 0.6},${sand + h * 0.01} T${w},${sand - h * 0.02} L${w},${h} L0,${h} Z" fill="url(#sand)"/>
<path d="M0,${sand - 6} Q${w * 0.3},${sand - h * 0.04 - 6} ${w * 0.6},${sand - 5} T${w},${sand - h * 0.02 - 6}" stroke="#ffffff" stroke-opacity="0.7" stroke-width="5" fill="none"/>`;
}

function abstract(rng, w, h) {
  const hue = rng.int(0, 359);
  let shapes = '';
  let defs = linear('bg', hsl(hue, 60, 20), hsl(hue + 60, 60, 45), { x2: 1, y2: 1 });
  for (let i = 0; i < rng.int(5, 10); i++) {
    const id = `g${i}`;
    defs += linear(id, hsl(hue + rng.range(-90, 150), rng.range(50, 90), rng.range(45, 75)), hsl(hue + rng.range(-90, 150), rng.range(50, 90), rng.range(30, 60)), { x2: rng.next(), y2: 1 });
    const opacity = rng.range(0.5, 0.9).toFixed(2);
    if (rng.chance(0.6)) {
      shapes += `<circle cx="${rng.int(0, w)}" cy="${rng.int(0, h)}" r="${rng.int(w / 10, w / 2.5)}" fill="url(#${id})" opacity="${opacity}"/>`;
    } else {
      const cx = rng.int(0, w);
      const cy = rng.int(0, h);
      const s = rng.int(w / 8, w / 3);
      shapes += `<rect x="${cx - s}" y="${cy - s}" width="${2 * s}" height="${2 * s}" rx="${s * rng.range(0, 0.5)}" transform="rotate(${rng.int(0, 90)} ${cx} ${cy})" fill="url(#${id})" opacity="${opacity}"/>`;
    }
  }
  return `<defs>${defs}</defs><rect width="${w}" height="${h}" fill="url(#bg)"/>${shapes}`;
}

const DRAW = { portrait, landscape, city, beach, abstract };

/** The SVG document of one picture of `kind`, `width` × `height` pixels. */
export function pictureSvg(kind, rng, width, height, options = {}) {
  const draw = DRAW[kind];
  if (!draw) throw new Error(`unknown picture kind ${kind}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${draw(rng, width, height, options)}</svg>`;
}
