import type { SparseMatrix } from "./linalg.js";
import type { PairCounts } from "./pair-counts.js";

/**
 * From a token sequence to the matrix the trainer factorizes: window co-occurrence counts, then positive
 * pointwise mutual information.
 */

/**
 * Adds each pair of distinct words at most `window` apart in `seq[0..n)`, weighted 1/distance (adjacent sub-words,
 * usually parts of one identifier, say the most about each other). `v` is the vocabulary size: the pair key is
 * smaller·v + larger.
 */
export function addWindowPairs(pairs: PairCounts, seq: Int32Array, n: number, window: number, v: number): void {
  for (let i = 0; i < n; i++) {
    const a = seq[i]!;
    const last = Math.min(n - 1, i + window);
    for (let j = i + 1; j <= last; j++) {
      const b = seq[j]!;
      if (a === b) continue;
      pairs.add(a < b ? a * v + b : b * v + a, 1 / (j - i));
    }
  }
}

/**
 * The co-occurrence counts as a sparse, symmetric PPMI matrix. PPMI(w, c) = max(0, ln(P(w,c) / (P(w)·Pα(c)))),
 * with context probabilities Pα smoothed by the exponent α; smoothing makes it asymmetric, so each cell is the mean
 * of PPMI(w, c) and PPMI(c, w) (which lets the factorization be an eigendecomposition). Pairs lighter than
 * `minWeight` still count toward the marginals but get no cell: a pair seen once, at a distance, is mostly
 * chance, and every cell costs time in each product of the factorization. Non-positive cells are left out.
 */
export function ppmiMatrix(pairs: PairCounts, n: number, alpha: number, minWeight: number): SparseMatrix {
  const rowNnz = new Int32Array(n + 1);
  const marginal = new Float64Array(n);
  pairs.forEach((key, w) => {
    const a = Math.floor(key / n);
    const b = key - a * n;
    marginal[a] = marginal[a]! + w;
    marginal[b] = marginal[b]! + w;
    if (w < minWeight) return;
    rowNnz[a] = rowNnz[a]! + 1;
    rowNnz[b] = rowNnz[b]! + 1;
  });
  const rowStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rowStart[i + 1] = rowStart[i]! + rowNnz[i]!;
  const cols = new Int32Array(rowStart[n]!);
  const counts = new Float32Array(rowStart[n]!);
  const fill = rowStart.slice(0, n);
  pairs.forEach((key, w) => {
    if (w < minWeight) return;
    const a = Math.floor(key / n);
    const b = key - a * n;
    cols[fill[a]!] = b;
    counts[fill[a]!++] = w;
    cols[fill[b]!] = a;
    counts[fill[b]!++] = w;
  });
  const smoothed = Float64Array.from(marginal, (m) => Math.pow(m, alpha));
  const smoothedTotal = smoothed.reduce((a, b) => a + b, 0);
  // P(w,c) / (P(w)·Pα(c)) = (c/D) / ((m(w)/D)·(m(c)^α/Σm^α)): the grand total D cancels.
  const ppmi = (c: number, w: number, ctx: number) => Math.max(0, Math.log((c * smoothedTotal) / (marginal[w]! * smoothed[ctx]!)));
  return compactPositive({ n, rowStart, cols, values: counts }, (row, col, c) => (ppmi(c, row, col) + ppmi(c, col, row)) / 2);
}

/** Replaces each cell by f(row, col, value), keeping only positive results. */
function compactPositive(m: SparseMatrix, f: (row: number, col: number, value: number) => number): SparseMatrix {
  const rowStart = new Int32Array(m.n + 1);
  let out = 0;
  for (let i = 0; i < m.n; i++) {
    for (let p = m.rowStart[i]!; p < m.rowStart[i + 1]!; p++) {
      const x = f(i, m.cols[p]!, m.values[p]!);
      if (x > 0) {
        m.cols[out] = m.cols[p]!;
        m.values[out] = x;
        out += 1;
      }
    }
    rowStart[i + 1] = out;
  }
  return { n: m.n, rowStart, cols: m.cols.subarray(0, out), values: m.values.subarray(0, out) };
}
