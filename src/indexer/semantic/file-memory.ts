import { grow } from "./arrays.js";
import type { SemanticModel } from "./model.js";

/**
 * Each file's distinct sub-words, remembered compactly while the build streams files through, so every file can
 * be embedded once the model exists (the model is trained on all files, so it exists only after the last one).
 * The alternative, reading and splitting every file's text a second time, costs as much as the first read.
 *
 * A sub-word is kept as a 32-bit hash (4 bytes, no string kept alive): the Linux kernel's 55k C files hold
 * ~15M distinct (file, sub-word) pairs, about 60 MB here. Two sub-words may share a hash; with a vocabulary of
 * ~30k words and 32-bit hashes, about one outside word in 140,000 is taken for a vocabulary word, which moves
 * no file vector measurably.
 */

/** Distinct sub-words kept per file: more belong to tables and generated code, and say nothing more about it. */
export const MAX_TERMS_PER_FILE = 5000;
const INITIAL_CAPACITY = 1 << 16;
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

export class FileTermMemory {
  private fileIds: Int32Array = new Int32Array(INITIAL_CAPACITY);
  private ends: Int32Array = new Int32Array(INITIAL_CAPACITY);
  private hashes: Int32Array = new Int32Array(INITIAL_CAPACITY);
  private files = 0;
  private size = 0;

  get fileCount(): number {
    return this.files;
  }

  /** Remembers a file's sub-words (repeats are dropped here, up to MAX_TERMS_PER_FILE distinct ones). */
  remember(fileId: number, terms: readonly string[]): void {
    const seen = new Set<number>();
    for (const t of terms) {
      if (seen.size >= MAX_TERMS_PER_FILE) break;
      seen.add(hashTerm(t));
    }
    if (this.size + seen.size > this.hashes.length) this.hashes = grow(this.hashes, this.size + seen.size);
    for (const h of seen) this.hashes[this.size++] = h;
    if (this.files + 1 > this.fileIds.length) {
      this.fileIds = grow(this.fileIds, this.files + 1);
      this.ends = grow(this.ends, this.files + 1);
    }
    this.fileIds[this.files] = fileId;
    this.ends[this.files] = this.size;
    this.files += 1;
  }

  /** Every remembered file's embedding, by file id; the vectors share one buffer. Frees the memory afterwards. */
  embedAll(model: SemanticModel): Map<number, Float32Array> {
    const byHash = new Map<number, number>();
    model.vocab.forEach((w, i) => {
      const h = hashTerm(w);
      if (!byHash.has(h)) byHash.set(h, i);
    });
    const out = new Map<number, Float32Array>();
    const all = new Float32Array(this.files * model.dims);
    const positions: number[] = [];
    let start = 0;
    for (let f = 0; f < this.files; f++) {
      positions.length = 0;
      for (let p = start; p < this.ends[f]!; p++) {
        const i = byHash.get(this.hashes[p]!);
        if (i !== undefined) positions.push(i);
      }
      out.set(this.fileIds[f]!, model.embedIndices(positions, all.subarray(f * model.dims, (f + 1) * model.dims)));
      start = this.ends[f]!;
    }
    this.fileIds = this.ends = this.hashes = new Int32Array(0);
    this.files = this.size = 0;
    return out;
  }
}

/** FNV-1a over UTF-16 code units: cheap, deterministic, and well spread for short words. */
export function hashTerm(term: string): number {
  let h = FNV_OFFSET;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), FNV_PRIME);
  return h | 0;
}
