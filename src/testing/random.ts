/**
 * A seeded generator, so the same seed yields the same accounts, ids and history on every run and machine.
 * mulberry32: tiny, fast, and good enough for fake data (not for anything secret).
 */
export class Rng {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `n` hex digits. */
  hex(n: number): string {
    return this.#draw('0123456789abcdef', n);
  }

  /** `n` decimal digits (may start with 0). */
  digits(n: number): string {
    return this.#draw('0123456789', n);
  }

  /** `n` characters of A-Z and 2-9 (no look-alikes), for codes a person may type. */
  code(n: number): string {
    return this.#draw('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', n);
  }

  #draw(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  /** A version-4-shaped uuid. */
  uuid(): string {
    const s = this.hex(32);
    const variant = '89ab'[Number.parseInt(s[16] ?? '0', 16) & 3];
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-4${s.slice(13, 16)}-${variant}${s.slice(17, 20)}-${s.slice(20)}`;
  }
}

/**
 * A generator of its own for one `key` under `seed` (FNV-1a of both): what it draws depends on the seed and the
 * key alone, not on how many draws the mock made before, so timers that fire in another order draw the same.
 */
export function rngFor(seed: number, key: string): Rng {
  let hash = 0x811c9dc5 ^ (seed >>> 0);
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return new Rng(hash >>> 0);
}
