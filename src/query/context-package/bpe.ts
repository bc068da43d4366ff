/**
 * A byte-pair token counter over a compact rank table: the same counts as gpt-tokenizer's `countTokens` with special
 * tokens read as text (test/bpe-count.test.ts checks that on this repository's files), at a fraction of its memory.
 * gpt-tokenizer keeps an encoding as a compiled JavaScript module of 200k literals plus a Map of them, ~60 MiB of
 * resident memory per thread, and its merge cache grows to 100k entries; `serve --http` counts tokens in every worker
 * of its pool, so each paid that again. Here one encoding is a byte blob, an offset array and an open-addressing hash
 * table, ~5 MiB, read from the `.tiktoken` rank file gpt-tokenizer ships (one line per token: base64 bytes, rank);
 * the splitting pattern is gpt-tokenizer's own.
 */
import { readFileSync } from "node:fs";

export interface RankTable {
  /** Every token's bytes, one after another, in rank order. */
  readonly bytes: Uint8Array;
  /** Token r's bytes are bytes[offsets[r] .. offsets[r + 1]); a rank with no token has none. */
  readonly offsets: Uint32Array;
  /** Open addressing by a hash of the bytes: rank + 1, 0 for an empty slot. */
  readonly slots: Int32Array;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hash(b: Uint8Array, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ b[i]!, FNV_PRIME);
  return h >>> 0;
}

/** The rank of bytes b[start..end), or -1 when they are not one token. */
export function rankOf(t: RankTable, b: Uint8Array, start: number, end: number): number {
  const mask = t.slots.length - 1;
  const len = end - start;
  for (let s = hash(b, start, end) & mask; ; s = (s + 1) & mask) {
    const entry = t.slots[s]!;
    if (entry === 0) return -1;
    const r = entry - 1;
    const from = t.offsets[r]!;
    if (t.offsets[r + 1]! - from !== len) continue;
    let i = 0;
    while (i < len && t.bytes[from + i] === b[start + i]) i++;
    if (i === len) return r;
  }
}

const B64 = (() => {
  const t = new Int8Array(256).fill(-1);
  const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let i = 0; i < abc.length; i++) t[abc.charCodeAt(i)] = i;
  return t;
})();
const SPACE = 0x20;
const NEWLINE = 0x0a;
const DIGIT_0 = 0x30;

/** Decodes base64 src[from..to) into out at `at`; returns the bytes written (padding and unknown bytes end it). */
function decodeBase64(src: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  let bits = 0;
  let n = 0;
  let w = at;
  for (let i = from; i < to; i++) {
    const v = B64[src[i]!]!;
    if (v < 0) break;
    bits = (bits << 6) | v;
    n += 6;
    if (n >= 8) {
      n -= 8;
      out[w++] = (bits >> n) & 0xff;
    }
  }
  return w - at;
}

function badLine(src: Uint8Array, at: number): Error {
  return new Error(`bad rank line in a .tiktoken file: ${Buffer.from(src.subarray(at, Math.min(src.length, at + 40))).toString("latin1")}`);
}

/**
 * Builds the table from a `.tiktoken` file (lines of base64 bytes, a space and a rank; ranks in any order), working
 * on the file's bytes: no string or object per token, so the build leaves nothing behind but the table itself (the
 * same build over the file as text grew the heap by 15 MiB of garbage that stayed resident).
 */
export function parseTiktoken(src: Uint8Array): RankTable {
  let lineCount = 1;
  for (let i = 0; i < src.length; i++) if (src[i] === NEWLINE) lineCount++;
  // Per line: where its base64 starts, where it ends, its rank.
  const lines = new Uint32Array(lineCount * 3);
  let count = 0;
  let maxRank = -1;
  for (let at = 0; at < src.length; ) {
    let end = src.indexOf(NEWLINE, at);
    if (end < 0) end = src.length;
    const space = src.indexOf(SPACE, at);
    if (space > at && space < end) {
      let rank = 0;
      for (let i = space + 1; i < end; i++) {
        const d = src[i]! - DIGIT_0;
        if (d < 0 || d > 9 || i - space > 9) throw badLine(src, at);
        rank = rank * 10 + d;
      }
      if (space + 1 === end) throw badLine(src, at);
      lines.set([at, space, rank], count * 3);
      count++;
      maxRank = Math.max(maxRank, rank);
    } else if (end > at) throw badLine(src, at);
    at = end + 1;
  }
  const lengths = new Uint32Array(maxRank + 1);
  const scratch = new Uint8Array(1024);
  for (let i = 0; i < count; i++) lengths[lines[i * 3 + 2]!] = decodeBase64(src, lines[i * 3]!, lines[i * 3 + 1]!, scratch, 0);
  const offsets = new Uint32Array(maxRank + 2);
  for (let r = 0; r <= maxRank; r++) offsets[r + 1] = offsets[r]! + lengths[r]!;
  const bytes = new Uint8Array(offsets[maxRank + 1]!);
  for (let i = 0; i < count; i++) decodeBase64(src, lines[i * 3]!, lines[i * 3 + 1]!, bytes, offsets[lines[i * 3 + 2]!]!);
  let size = 1;
  while (size < (maxRank + 1) * 2) size <<= 1;
  const slots = new Int32Array(size);
  for (let r = 0; r <= maxRank; r++) {
    if (offsets[r + 1] === offsets[r]) continue;
    let s = hash(bytes, offsets[r]!, offsets[r + 1]!) & (size - 1);
    while (slots[s] !== 0) s = (s + 1) & (size - 1);
    slots[s] = r + 1;
  }
  return { bytes, offsets, slots };
}

export function loadTiktoken(path: string): RankTable {
  return parseTiktoken(readFileSync(path));
}

/**
 * Tokens of one piece of the split, by the standard merge: join the adjacent pair whose bytes form the lowest-ranked
 * token, the leftmost on a tie, until no pair is a token. Only the count of parts is kept.
 */
function mergeCount(t: RankTable, b: Uint8Array, n: number, starts: Int32Array, ranks: Float64Array): number {
  const pair = (i: number, parts: number): number => (i + 2 <= parts ? rankOrInf(t, b, starts[i]!, starts[i + 2]!) : Infinity);
  let parts = n;
  for (let i = 0; i <= n; i++) starts[i] = i;
  for (let i = 0; i < n; i++) ranks[i] = i + 1 < n ? rankOrInf(t, b, i, i + 2) : Infinity;
  while (parts > 1) {
    let low = Infinity;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (ranks[i]! < low) (low = ranks[i]!), (at = i);
    }
    if (at < 0) break;
    starts.copyWithin(at + 1, at + 2, parts + 1);
    ranks.copyWithin(at, at + 1, parts);
    parts--;
    ranks[at] = pair(at, parts);
    if (at > 0) ranks[at - 1] = pair(at - 1, parts);
  }
  return parts;
}

function rankOrInf(t: RankTable, b: Uint8Array, start: number, end: number): number {
  const r = rankOf(t, b, start, end);
  return r < 0 ? Infinity : r;
}

/** Pieces counted most recently: identifiers and words repeat, and a merge costs a quadratic walk of the piece. */
const CACHE_SIZE = 4096;

export type Counter = (text: string) => number;

/** A counter for one table and its splitting pattern (a global, unicode RegExp). */
export function bpeCounter(t: RankTable, split: RegExp): Counter {
  const pattern = new RegExp(split.source, split.flags.includes("g") ? split.flags : `${split.flags}g`);
  const encoder = new TextEncoder();
  const cache = new Map<string, number>();
  let buf = new Uint8Array(1024);
  let starts = new Int32Array(1025);
  let ranks = new Float64Array(1025);
  const piece = (p: string): number => {
    const hit = cache.get(p);
    if (hit !== undefined) return hit;
    if (buf.length < p.length * 3) {
      buf = new Uint8Array(p.length * 3);
      starts = new Int32Array(buf.length + 1);
      ranks = new Float64Array(buf.length + 1);
    }
    const n = encoder.encodeInto(p, buf).written;
    const count = rankOf(t, buf, 0, n) >= 0 ? 1 : mergeCount(t, buf, n, starts, ranks);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(p, count);
    return count;
  };
  return (text) => {
    let count = 0;
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      count += piece(m[0]);
    }
    return count;
  };
}
