/** Bits per path in its trigram signature: 128, four 32-bit words. */
const WORDS = 4;
const BITS = WORDS * 32;

/** The bit a trigram of a lower-cased path sets (FNV-1a over its three UTF-16 units). */
function bitOf(a: number, b: number, c: number): number {
  let h = 0x811c9dc5;
  h = Math.imul(h ^ a, 0x01000193);
  h = Math.imul(h ^ b, 0x01000193);
  h = Math.imul(h ^ c, 0x01000193);
  return (h >>> 0) % BITS;
}

function bitCount(v: number): number {
  let n = 0;
  for (let x = v >>> 0; x !== 0; x &= x - 1) n += 1;
  return n;
}

function signInto(text: string, into: Int32Array, at: number): void {
  for (let i = 0; i + 3 <= text.length; i++) {
    const bit = bitOf(text.charCodeAt(i), text.charCodeAt(i + 1), text.charCodeAt(i + 2));
    into[at + (bit >>> 5)]! |= 1 << (bit & 31);
  }
}

/**
 * The paths of one index's files, for asking two things without listing every candidate of a query: whether file
 * ids ascend with paths (then the full-text index hands candidates back in path order), and which files' paths hold
 * a text (lower-cased), through a 128-bit trigram signature per path that rules most paths out with four ANDs.
 */
export class PathSignatures {
  /** Whether ascending ids are ascending paths (JavaScript string order, as the read order compares them). */
  readonly pathOrdered: boolean;
  private readonly ids: number[];
  private readonly lower: string[];
  private readonly sigs: Int32Array;

  constructor(rows: Iterable<{ id: number; path: string }>) {
    const files = [...rows].sort((a, b) => a.id - b.id);
    let ordered = true;
    for (let i = 1; i < files.length && ordered; i++) ordered = files[i - 1]!.path < files[i]!.path;
    this.pathOrdered = ordered;
    this.ids = files.map((f) => f.id);
    this.lower = files.map((f) => f.path.toLowerCase());
    this.sigs = new Int32Array(files.length * WORDS);
    this.lower.forEach((p, i) => signInto(p, this.sigs, i * WORDS));
  }

  /**
   * Ids of the files whose lower-cased path contains `textLower`, ascending; null when more than `limit` do, or when
   * the text is too short for a signature to rule anything out.
   */
  holding(textLower: string, limit: number): number[] | null {
    if (textLower.length < 3) return null;
    const want = new Int32Array(WORDS);
    signInto(textLower, want, 0);
    // The word with the most bits first: it rules out the most paths, mostly alone.
    const [o0, o1, o2, o3] = [0, 1, 2, 3].sort((a, b) => bitCount(want[b]!) - bitCount(want[a]!)) as [number, number, number, number];
    const [m0, m1, m2, m3] = [want[o0]!, want[o1]!, want[o2]!, want[o3]!];
    const { sigs, lower, ids } = this;
    const out: number[] = [];
    for (let i = 0, at = 0; i < ids.length; i++, at += WORDS) {
      if ((sigs[at + o0]! & m0) !== m0 || (sigs[at + o1]! & m1) !== m1 || (sigs[at + o2]! & m2) !== m2 || (sigs[at + o3]! & m3) !== m3) continue;
      if (!lower[i]!.includes(textLower)) continue;
      if (out.length >= limit) return null;
      out.push(ids[i]!);
    }
    return out;
  }
}
