/**
 * A small seeded PRNG (mulberry32 over an FNV-1a hash of the seed text): the fit's shuffles and
 * initial factors come from it, so the same swipes and seed always give the same model.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: string | number) {
    this.state = hashText(String(seed));
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Normally distributed (Box-Muller). */
  normal(mean: number, sd: number): number {
    const u = 1 - this.next();
    const v = this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  /** A random permutation of 0..n-1 (Fisher-Yates) written into `out`. */
  shuffle(out: Uint32Array): Uint32Array {
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const t = out[i];
      out[i] = out[j];
      out[j] = t;
    }
    return out;
  }
}

/** FNV-1a, 32 bits: a stable hash of a text (seeds, held-out split). */
export function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
