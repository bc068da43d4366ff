/**
 * Weighted co-occurrence counts of unordered word pairs, in a fixed-size open-addressing table over typed arrays.
 * A JavaScript Map of number keys costs ~10× more time and memory per entry; the fixed capacity is the trainer's
 * memory bound. When the table fills, the rarest pairs are pruned (they carry the least, and the noisiest, PMI
 * signal), the same compromise memory-limited GloVe and word2vec counters make.
 */

/** Above this fill the table prunes: linear probing slows sharply past ~3/4. */
const MAX_LOAD = 0.7;
/** A prune must bring the fill below this, or it prunes again with a doubled floor. */
const TARGET_LOAD_AFTER_PRUNE = 0.45;
/** The first prune drops pairs whose weight is at most this (one adjacent co-occurrence). */
const INITIAL_PRUNE_FLOOR = 1;
/** Fibonacci hashing: multiply by 2^32/φ and keep the high bits. */
const HASH_MULTIPLIER = 0x9e3779b1;

export class PairCounts {
  /** Pair key + 1 (0: empty slot). */
  private keys: Uint32Array;
  private weights: Float32Array;
  private readonly shift: number;
  private readonly mask: number;
  private readonly limit: number;
  private pruneFloor = INITIAL_PRUNE_FLOOR;
  size = 0;
  /** Pairs dropped by pruning, reported in the model's metadata. */
  pruned = 0;

  /** `bits`: log2 of the slot count. Keys are below 2^32 - 1 (the trainer caps the vocabulary at 65,535 words). */
  constructor(bits: number) {
    const capacity = 2 ** bits;
    this.keys = new Uint32Array(capacity);
    this.weights = new Float32Array(capacity);
    this.shift = 32 - bits;
    this.mask = capacity - 1;
    this.limit = Math.floor(capacity * MAX_LOAD);
  }

  add(key: number, weight: number): void {
    const stored = key + 1;
    let slot = Math.imul(stored, HASH_MULTIPLIER) >>> this.shift;
    for (;;) {
      const k = this.keys[slot]!;
      if (k === stored) {
        this.weights[slot] = this.weights[slot]! + weight;
        return;
      }
      if (k === 0) break;
      slot = (slot + 1) & this.mask;
    }
    this.keys[slot] = stored;
    this.weights[slot] = weight;
    this.size += 1;
    if (this.size > this.limit) this.prune();
  }

  /** Visits every pair (key, weight) in slot order: deterministic for the same sequence of adds. */
  forEach(visit: (key: number, weight: number) => void): void {
    for (let slot = 0; slot < this.keys.length; slot++) {
      const k = this.keys[slot]!;
      if (k !== 0) visit(k - 1, this.weights[slot]!);
    }
  }

  /** Drops pairs at or below a floor that doubles until the table is comfortably below its limit. */
  private prune(): void {
    const target = Math.floor(this.keys.length * TARGET_LOAD_AFTER_PRUNE);
    let survivors = this.size;
    while (survivors > target) {
      survivors = 0;
      for (let slot = 0; slot < this.keys.length; slot++) {
        if (this.keys[slot] !== 0 && this.weights[slot]! > this.pruneFloor) survivors += 1;
      }
      if (survivors > target) this.pruneFloor *= 2;
    }
    const keptKeys = new Uint32Array(survivors);
    const keptWeights = new Float32Array(survivors);
    let n = 0;
    for (let slot = 0; slot < this.keys.length; slot++) {
      if (this.keys[slot] !== 0 && this.weights[slot]! > this.pruneFloor) {
        keptKeys[n] = this.keys[slot]!;
        keptWeights[n] = this.weights[slot]!;
        n += 1;
      }
    }
    this.pruned += this.size - n;
    this.keys.fill(0);
    this.size = 0;
    for (let i = 0; i < n; i++) this.reinsert(keptKeys[i]!, keptWeights[i]!);
  }

  private reinsert(stored: number, weight: number): void {
    let slot = Math.imul(stored, HASH_MULTIPLIER) >>> this.shift;
    while (this.keys[slot] !== 0) slot = (slot + 1) & this.mask;
    this.keys[slot] = stored;
    this.weights[slot] = weight;
    this.size += 1;
  }
}
