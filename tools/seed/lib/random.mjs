// Deterministic randomness. Every value the seeder makes comes from a stream named by the run's
// seed and what it is for ("member 17", "pool image 3"), so one member's data does not depend on
// how many others were made before it, and the same seed always gives the same population.
import { createHash } from 'node:crypto';

/** SHA-256 of the parts joined by ':'. */
export function digest(...parts) {
  return createHash('sha256').update(parts.join(':')).digest();
}

/** A v4-shaped UUID derived from the parts (distinct parts give distinct ids, in practice always). */
export function uuidFrom(...parts) {
  const b = digest('uuid', ...parts);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex', 0, 16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** A small fast PRNG (sfc32, 128-bit state) with the helpers the generators need. */
export class Rng {
  constructor(...parts) {
    const d = digest('rng', ...parts);
    this.a = d.readUInt32LE(0);
    this.b = d.readUInt32LE(4);
    this.c = d.readUInt32LE(8);
    this.d = d.readUInt32LE(12);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A float in [0, 1). */
  next() {
    let { a, b, c, d } = this;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    this.a = a;
    this.b = b;
    this.c = c;
    this.d = d;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min, max) {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  range(min, max) {
    return min + this.next() * (max - min);
  }

  chance(p) {
    return this.next() < p;
  }

  pick(list) {
    return list[Math.floor(this.next() * list.length)];
  }

  /** One value of `[[value, weight], ...]`. */
  weighted(entries) {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    return entries[entries.length - 1][0];
  }

  /** Normally distributed (Box-Muller). */
  normal(mean, sd) {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** `k` distinct items of `list`, in random order. */
  sample(list, k) {
    const copy = list.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  }
}
