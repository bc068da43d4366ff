/**
 * The baseline any reader can reproduce in fifty lines: file-level BM25 (k1 1.2, b 0.75) over each indexed text
 * file's identifiers, split into words and lowercased, with the issue text tokenized the same way. No path, symbol,
 * prior or graph signal: it is what an agent gets from a plain search engine over the checkout.
 */
const K1 = 1.2;
const B = 0.75;
const TOKEN = /[A-Za-z_][A-Za-z0-9_]*/g;

/** Lowercased words of a text: each identifier whole and split at case changes, underscores and digits. */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const id of text.match(TOKEN) ?? []) {
    const lower = id.toLowerCase();
    if (lower.length >= 2) out.push(lower);
    const parts = id.split(/_+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/).map((p) => p.toLowerCase());
    if (parts.length > 1) for (const p of parts) if (p.length >= 2) out.push(p);
  }
  return out;
}

export class Bm25Index {
  private readonly docs: { path: string; tf: Map<string, number>; length: number }[] = [];
  private readonly df = new Map<string, number>();
  private totalLength = 0;

  add(path: string, text: string): void {
    const tf = new Map<string, number>();
    const words = tokens(text);
    for (const w of words) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const w of tf.keys()) this.df.set(w, (this.df.get(w) ?? 0) + 1);
    this.docs.push({ path, tf, length: words.length });
    this.totalLength += words.length;
  }

  /** Paths by descending score (ties by path), at most `limit`. */
  search(query: string, limit: number): string[] {
    const n = this.docs.length;
    const avg = this.totalLength / Math.max(1, n);
    const terms = [...new Set(tokens(query))];
    const scored: { path: string; score: number }[] = [];
    for (const d of this.docs) {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t);
        if (!f) continue;
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg));
      }
      if (score > 0) scored.push({ path: d.path, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : 1));
    return scored.slice(0, limit).map((s) => s.path);
  }
}
