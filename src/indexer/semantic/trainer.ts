import { grow } from "./arrays.js";
import { FileTermMemory } from "./file-memory.js";
import { PairCounts } from "./pair-counts.js";
import { randomizedEigen, type Dense, type SparseMatrix } from "./linalg.js";
import { SemanticModel, VOCAB_SEPARATOR } from "./model.js";
import { addWindowPairs, ppmiMatrix } from "./ppmi.js";
import { mix32, seededRandom } from "./random.js";
import type { TrainingStats } from "../../core/semantic.js";

/**
 * Trains a SemanticModel on a repository's own identifiers, at index time, with no download: count how often
 * sub-words occur near each other, weigh the counts by positive pointwise mutual information (PPMI), and factorize
 * that matrix into dense vectors. Levy, Goldberg & Dagan (2015) show that PPMI + truncated SVD with the word2vec
 * tricks used here (context-distribution smoothing, frequent-word subsampling, eigenvalue weighting) matches
 * skip-gram on word-similarity tasks; unlike skip-gram it needs no learning rate, epochs or threads, and gives the
 * same vectors for the same input. The matrix is made symmetric, so the truncated SVD is a randomized
 * eigendecomposition (half the matrix products). Sub-words that share identifiers and neighbourhoods
 * (expire/ttl/stale) end up close.
 *
 * Memory is bounded whatever the repository: the kept text is at most `maxTokens` sub-word ids (whole documents
 * are sampled out once it is full), the pair counts live in a fixed-size table, the factorization works on
 * vocabulary × (dims + oversample) dense blocks, and files to embed are remembered as 4-byte hashes. On the Linux
 * kernel's C files (55k files, 189M sub-words) training and embedding every file take ~12 s and ~180 MB.
 */

export interface TrainerOptions {
  /** Vector dimensions. */
  dims: number;
  /** The most frequent sub-words kept (at most 65,535: pair keys are 32-bit). */
  maxVocab: number;
  /** A sub-word must occur this often in the kept text to get a vector. */
  minCount: number;
  /** Co-occurrence window on each side; a pair at distance d counts 1/d. */
  window: number;
  /** Sub-word ids kept for training; beyond it whole documents are sampled out (deterministically). */
  maxTokens: number;
  /** Sub-words kept from one document: a generated table must not outweigh the rest of the repository. */
  maxDocTokens: number;
  /** Pairs lighter than this get no matrix cell (one adjacent co-occurrence weighs 1). */
  minPairWeight: number;
  /** log2 of the pair-count table's slots (8 bytes each). */
  pairTableBits: number;
  /** Frequent-word subsampling threshold (word2vec's t): very common sub-words (get, set, to) are thinned. */
  subsample: number;
  /** Context-distribution smoothing exponent: raising context counts to 0.75 stops rare contexts' PMI from exploding. */
  contextSmoothing: number;
  /** Word vectors are U·|Λ|^p; p = 0.5 spreads the spectrum more evenly than the raw factors (p = 1). */
  eigenWeight: number;
  oversample: number;
  powerIterations: number;
  seed: number;
}

export const DEFAULT_TRAINER_OPTIONS: Readonly<TrainerOptions> = {
  dims: 96,
  maxVocab: 30_000,
  minCount: 5,
  window: 3,
  maxTokens: 12_000_000,
  maxDocTokens: 20_000,
  minPairWeight: 1,
  pairTableBits: 22,
  subsample: 1e-4,
  contextSmoothing: 0.75,
  eigenWeight: 0.5,
  oversample: 16,
  powerIterations: 3,
  seed: 0x5eed,
};


export interface TrainingResult {
  model: SemanticModel;
  stats: TrainingStats;
  /** The vectors of the files added with an id, by id (all zeros for a file with no known sub-word). */
  fileVectors: Map<number, Float32Array>;
}

const MAX_VOCAB_CEILING = 65_535;
const MIN_WORD_LENGTH = 2;
const MAX_WORD_LENGTH = 40;
const DIGITS_ONLY = /^[0-9]+$/;
/** V8 copies substrings shorter than this; longer ones are views of their parent string. */
const SLICED_STRING_MIN = 13;
const INITIAL_STREAM = 1 << 16;
/** The smallest pair table (small repositories need no 32 MB table). */
const MIN_PAIR_TABLE_BITS = 12;
/** Expected distinct pairs per kept pair occurrence: sizes the table for small inputs. */
const PAIR_TABLE_HEADROOM = 2;
/** Documents (and sub-words in all) embedded to estimate the common document direction. */
const CENTER_SAMPLE_DOCS = 2000;
const CENTER_SAMPLE_TOKENS = 1_000_000;
/** See rankFor. */
const MIN_WORDS_PER_DIM = 4;
const MIN_RANK = 2;
/** idf = ln(1 + N / (df + 1)): finite and positive even for a word in every document. */
const IDF_SMOOTHING = 1;

export class SemanticTrainer {
  private readonly opts: TrainerOptions;
  private readonly ids = new Map<string, number>();
  private readonly words: string[] = [];
  private stream: Int32Array = new Int32Array(INITIAL_STREAM);
  private tokens = 0;
  /** End offset in `stream` and arrival number of each kept document. */
  private docEnds: Int32Array = new Int32Array(INITIAL_STREAM);
  private docSerials: Int32Array = new Int32Array(INITIAL_STREAM);
  private docs = 0;
  private seen = 0;
  private level = 0;
  private finished = false;
  private readonly files = new FileTermMemory();

  constructor(opts: Partial<TrainerOptions> = {}) {
    this.opts = { ...DEFAULT_TRAINER_OPTIONS, ...opts };
    if (this.opts.maxVocab > MAX_VOCAB_CEILING) throw new Error(`maxVocab must be at most ${MAX_VOCAB_CEILING}`);
    if (this.opts.dims < 1 || this.opts.window < 1) throw new Error("dims and window must be positive");
  }

  /**
   * One document: its identifiers' lower-case sub-words in order of appearance. Documents must arrive in a stable
   * order (path order) for the model to be reproducible: sampling is decided by arrival number.
   *
   * With `file`, the file is also remembered to be embedded when the model is trained (finish() returns its
   * vector): by its distinct sub-words `terms` when the caller has them (cheaper), else by `subwords`. Every file
   * is remembered, including those the training sample leaves out.
   */
  add(subwords: readonly string[], file?: { id: number; terms?: readonly string[] }): void {
    this.assertOpen();
    if (file) this.files.remember(file.id, file.terms ?? subwords);
    const serial = this.seen++;
    if (!keeps(serial, this.level, this.opts.seed)) return;
    const n = Math.min(subwords.length, this.opts.maxDocTokens);
    this.reserve(n);
    for (let i = 0; i < n; i++) {
      const w = subwords[i]!;
      if (w.length < MIN_WORD_LENGTH || w.length > MAX_WORD_LENGTH || DIGITS_ONLY.test(w)) continue;
      const id = this.intern(w);
      if (id >= 0) this.stream[this.tokens++] = id;
    }
    this.docEnds[this.docs] = this.tokens;
    this.docSerials[this.docs] = serial;
    this.docs += 1;
    while (this.tokens > this.opts.maxTokens) this.thin();
  }

  /** Whether the next document added will be in the training sample: callers skip tokenizing those that won't. */
  wantsNext(): boolean {
    return keeps(this.seen, this.level, this.opts.seed);
  }

  /** Trains the model on what was added, and embeds the remembered files. The trainer is spent afterwards. */
  finish(): TrainingResult {
    this.assertOpen();
    const counts = this.countWords();
    const vocab = this.selectVocabulary(counts);
    const stats: TrainingStats = {
      documentsSeen: this.seen,
      documentsKept: this.docs,
      tokensKept: this.tokens,
      sampleLevel: this.level,
      vocabulary: 0,
      dims: 0,
      pairs: 0,
      prunedPairs: 0,
      nonZeros: 0,
    };
    if (vocab.length < 2) {
      this.release();
      const model = new SemanticModel({ dims: 0, vocab: [], vectors: new Float32Array(0) });
      return { model, stats, fileVectors: this.files.embedAll(model) };
    }
    const words = vocab.map((id) => this.words[id]!);
    const remap = new Int32Array(this.words.length).fill(-1);
    vocab.forEach((id, i) => (remap[id] = i));
    const matrix = this.cooccurrence(remap, vocab.map((id) => counts[id]!), stats);
    const df = this.documentFrequencies(remap, vocab.length);
    const sample = this.centerSample(remap);
    const docs = this.docs;
    // The kept text is not needed past this point: free it before the factorization allocates its blocks.
    this.release();
    const { vectors: u, values } = randomizedEigen(matrix, {
      rank: rankFor(this.opts.dims, vocab.length),
      oversample: this.opts.oversample,
      powerIterations: this.opts.powerIterations,
      seed: this.opts.seed,
    });
    const keep = nonZeroRows(u);
    const vectors = wordVectors({ rows: keep.length, cols: u.cols, data: pickRows(u, keep) }, values.map(Math.abs), this.opts.eigenWeight);
    const data = {
      dims: vectors.cols,
      vocab: keep.map((i) => words[i]!),
      vectors: vectors.data,
      idf: Float32Array.from(keep, (w) => Math.log(1 + docs / (df[w]! + IDF_SMOOTHING))),
    };
    const center = documentCenter(new SemanticModel(data), sample.map((doc) => doc.map((w) => words[w]!)));
    const model = new SemanticModel({ ...data, center });
    return { model, stats: { ...stats, vocabulary: data.vocab.length, dims: data.dims }, fileVectors: this.files.embedAll(model) };
  }

  /** The word's id, or -1 for a word the serialized vocabulary could not hold. */
  private intern(w: string): number {
    let id = this.ids.get(w);
    if (id === undefined) {
      if (w.includes(VOCAB_SEPARATOR)) return -1;
      const own = detach(w);
      id = this.words.length;
      this.ids.set(own, id);
      this.words.push(own);
    }
    return id;
  }

  private reserve(n: number): void {
    if (this.tokens + n > this.stream.length) this.stream = grow(this.stream, this.tokens + n, this.opts.maxTokens + this.opts.maxDocTokens);
    if (this.docs + 1 > this.docEnds.length) {
      this.docEnds = grow(this.docEnds, this.docs + 1);
      this.docSerials = grow(this.docSerials, this.docs + 1);
    }
  }

  /** Halves the sampling rate and drops the kept documents the new rate excludes (a subset of the old sample). */
  private thin(): void {
    this.level += 1;
    let tokens = 0;
    let docs = 0;
    let start = 0;
    for (let d = 0; d < this.docs; d++) {
      const end = this.docEnds[d]!;
      if (keeps(this.docSerials[d]!, this.level, this.opts.seed)) {
        this.stream.copyWithin(tokens, start, end);
        tokens += end - start;
        this.docEnds[docs] = tokens;
        this.docSerials[docs] = this.docSerials[d]!;
        docs += 1;
      }
      start = end;
    }
    this.tokens = tokens;
    this.docs = docs;
  }

  private countWords(): Int32Array {
    const counts = new Int32Array(this.words.length);
    for (let i = 0; i < this.tokens; i++) counts[this.stream[i]!] = counts[this.stream[i]!]! + 1;
    return counts;
  }

  /** Interned ids of the vocabulary: frequent enough, most frequent first (ties by spelling, for determinism). */
  private selectVocabulary(counts: Int32Array): number[] {
    const ids: number[] = [];
    for (let id = 0; id < counts.length; id++) if (counts[id]! >= this.opts.minCount) ids.push(id);
    ids.sort((a, b) => counts[b]! - counts[a]! || (this.words[a]! < this.words[b]! ? -1 : 1));
    return ids.slice(0, this.opts.maxVocab);
  }

  /**
   * The PPMI matrix of weighted window co-occurrences over the kept text, after frequent-word subsampling. The
   * pair table lives only in here, so it is garbage before the factorization starts.
   */
  private cooccurrence(remap: Int32Array, freq: number[], stats: TrainingStats): SparseMatrix {
    const v = freq.length;
    const total = freq.reduce((a, b) => a + b, 0);
    const keepProb = Float32Array.from(freq, (f) => {
      const r = this.opts.subsample / (f / total);
      return Math.min(1, Math.sqrt(r) + r);
    });
    const expected = Math.max(1, this.tokens * this.opts.window * PAIR_TABLE_HEADROOM);
    const bits = Math.min(this.opts.pairTableBits, Math.max(MIN_PAIR_TABLE_BITS, Math.ceil(Math.log2(expected))));
    const pairs = new PairCounts(bits);
    const random = seededRandom(this.opts.seed);
    const seq = new Int32Array(this.opts.maxDocTokens);
    let start = 0;
    for (let d = 0; d < this.docs; d++) {
      const end = this.docEnds[d]!;
      let n = 0;
      for (let i = start; i < end; i++) {
        const w = remap[this.stream[i]!]!;
        if (w >= 0 && random() < keepProb[w]!) seq[n++] = w;
      }
      addWindowPairs(pairs, seq, n, this.opts.window, v);
      start = end;
    }
    const matrix = ppmiMatrix(pairs, v, this.opts.contextSmoothing, this.opts.minPairWeight);
    stats.pairs = pairs.size;
    stats.prunedPairs = pairs.pruned;
    stats.nonZeros = matrix.rowStart[v]!;
    return matrix;
  }

  /** In how many kept documents each vocabulary word occurs. */
  private documentFrequencies(remap: Int32Array, size: number): Int32Array {
    const df = new Int32Array(size);
    const lastDoc = new Int32Array(size).fill(-1);
    let start = 0;
    for (let d = 0; d < this.docs; d++) {
      const end = this.docEnds[d]!;
      for (let i = start; i < end; i++) {
        const w = remap[this.stream[i]!]!;
        if (w >= 0 && lastDoc[w] !== d) {
          lastDoc[w] = d;
          df[w] = df[w]! + 1;
        }
      }
      start = end;
    }
    return df;
  }

  /**
   * Vocabulary positions of up to CENTER_SAMPLE_DOCS kept documents spread evenly over them (at most
   * CENTER_SAMPLE_TOKENS in all): enough to estimate the mean document direction.
   */
  private centerSample(remap: Int32Array): number[][] {
    const sample: number[][] = [];
    const step = Math.max(1, Math.floor(this.docs / CENTER_SAMPLE_DOCS));
    let budget = CENTER_SAMPLE_TOKENS;
    for (let d = 0; d < this.docs && budget > 0; d += step) {
      const doc: number[] = [];
      for (let i = d === 0 ? 0 : this.docEnds[d - 1]!; i < this.docEnds[d]! && doc.length < budget; i++) {
        const w = remap[this.stream[i]!]!;
        if (w >= 0) doc.push(w);
      }
      budget -= doc.length;
      sample.push(doc);
    }
    return sample;
  }

  private assertOpen(): void {
    if (this.finished) throw new Error("semantic trainer already finished");
  }

  private release(): void {
    this.finished = true;
    this.stream = new Int32Array(0);
    this.docEnds = new Int32Array(0);
    this.docSerials = new Int32Array(0);
    this.ids.clear();
    this.words.length = 0;
  }
}

/**
 * The mean embedding of sample documents. Removing it from every embedding leaves what is particular to a file:
 * averaged word vectors share a large component (the repository's common vocabulary) that makes all files alike.
 */
function documentCenter(model: SemanticModel, docs: string[][]): Float32Array {
  const acc = new Float64Array(model.dims);
  for (const doc of docs) {
    const e = model.embed(doc);
    for (let c = 0; c < e.length; c++) acc[c] = acc[c]! + e[c]!;
  }
  return Float32Array.from(acc, (x) => x / Math.max(1, docs.length));
}

/**
 * The vector dimensions for a vocabulary: the requested ones, but at most one per MIN_WORDS_PER_DIM words. The
 * compression is what makes words that share company share a direction; a small repository's few hundred
 * words in as many dimensions would keep every word apart.
 */
function rankFor(dims: number, vocabulary: number): number {
  return Math.max(Math.min(MIN_RANK, vocabulary), Math.min(dims, Math.floor(vocabulary / MIN_WORDS_PER_DIM)));
}

/** Whether the document with this arrival number is in the sample at this level (rate 2^-level; levels nest). */
function keeps(serial: number, level: number, seed: number): boolean {
  if (level === 0) return true;
  return (mix32(serial ^ seed) & ((1 << level) - 1)) === 0;
}

/**
 * A copy of a string that shares no memory with the text it was cut from. V8 represents a substring of 13 or
 * more characters as a view of its parent, so keeping a sub-word cut from a file's text would keep the whole file
 * alive for as long as the trainer runs (measured on the Linux kernel: hundreds of MB).
 */
function detach(w: string): string {
  return w.length < SLICED_STRING_MIN ? w : Array.from(w).join("");
}

/** U·Σ^p, centred (the mean word vector is a direction every word shares) and scaled to unit rows. */
function wordVectors(u: Dense, sigma: Float64Array, p: number): Dense {
  const { rows, cols } = u;
  const data = new Float32Array(rows * cols);
  const weight = Array.from(sigma, (s) => Math.pow(s, p));
  const mean = new Float64Array(cols);
  for (let i = 0; i < rows; i++) {
    for (let c = 0; c < cols; c++) {
      const x = u.data[i * cols + c]! * weight[c]!;
      data[i * cols + c] = x;
      mean[c] = mean[c]! + x / rows;
    }
  }
  for (let i = 0; i < rows; i++) {
    let norm = 0;
    for (let c = 0; c < cols; c++) {
      const x = data[i * cols + c]! - mean[c]!;
      data[i * cols + c] = x;
      norm += x * x;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let c = 0; c < cols; c++) data[i * cols + c] = data[i * cols + c]! * inv;
  }
  return { rows, cols, data };
}

/** Rows with any signal: a word whose PPMI row is empty (all its pairs pruned or negative) has a zero row in U. */
function nonZeroRows(m: Dense): number[] {
  const keep: number[] = [];
  for (let i = 0; i < m.rows; i++) {
    let any = false;
    for (let c = 0; c < m.cols && !any; c++) any = m.data[i * m.cols + c] !== 0;
    if (any) keep.push(i);
  }
  return keep;
}

function pickRows(m: Dense, rows: readonly number[]): Float32Array {
  const out = new Float32Array(rows.length * m.cols);
  rows.forEach((r, i) => out.set(m.data.subarray(r * m.cols, (r + 1) * m.cols), i * m.cols));
  return out;
}
