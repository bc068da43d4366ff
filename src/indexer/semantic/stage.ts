import type { FileInput, Store } from "../../store/store.js";
import { splitIdentifier } from "../../core/terms.js";
import { MODEL_FORMAT, SemanticModel } from "./model.js";
import { SemanticTrainer } from "./trainer.js";
import { type EmbeddingProvider, DEFAULT_EMBEDDING_BATCH, EmbeddingProviderError } from "../../core/semantic.js";

/** Identifiers in order of appearance, as the trainer reads a document. */
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]{1,63}/g;
/** Sub-words taken from one file for training: a huge file says no more about word company than a large one. */
const MAX_DOC_SUBWORDS = 200_000;
const MIN_SUBWORD = 2;

/** Characters of a file sent to an external embeddings endpoint: its beginning says what it is about. */
export const EXTERNAL_TEXT_CHARS = 4000;

/** A file's identifiers split into sub-words, in order (the training document). */
export function orderedSubwords(content: string): string[] {
  const out: string[] = [];
  for (const id of content.match(IDENTIFIER) ?? []) {
    for (const w of splitIdentifier(id)) if (w.length >= MIN_SUBWORD) out.push(w);
    if (out.length >= MAX_DOC_SUBWORDS) break;
  }
  return out;
}

/** A file's distinct sub-words from its ranking terms (whole identifiers unknown to the model are ignored by it). */
function distinctTerms(row: FileInput): string[] {
  return [...new Set(`${row.terms!.symbols} ${row.terms!.body}`.split(" ").filter((t) => t.length >= MIN_SUBWORD))];
}

/**
 * The build's semantic stage: every indexed text file is remembered for embedding, the training sample's files
 * are tokenized in order (generated and vendored code is embedded but not learned from), and at the end the model
 * is trained and stored with every file's vector, before the index is published.
 */
export class SemanticStage {
  private readonly trainer = new SemanticTrainer();
  private readonly paths: string[] = [];
  private readonly external = new Map<number, Float32Array>();
  private pending: { ordinal: number; text: string }[] = [];
  private externalFailure: string | null = null;

  /** With an operator's embeddings endpoint, file vectors come from it; the trained model still expands queries. */
  constructor(private readonly provider: EmbeddingProvider | null = null) {}

  /** Call in path order (the sample depends on arrival order). */
  async add(row: FileInput): Promise<void> {
    if (!row.terms || row.content === null) return;
    const ordinal = this.paths.push(row.path) - 1;
    const learn = this.trainer.wantsNext() && !row.isGenerated && !row.isVendored;
    this.trainer.add(learn ? orderedSubwords(row.content) : [], { id: ordinal, terms: distinctTerms(row) });
    if (this.provider && this.externalFailure === null) {
      this.pending.push({ ordinal, text: row.content.slice(0, EXTERNAL_TEXT_CHARS) });
      if (this.pending.length >= DEFAULT_EMBEDDING_BATCH) await this.flush();
    }
  }

  /** Why the endpoint's vectors were not used (the built-in ones were), or null. */
  get fallbackReason(): string | null {
    return this.externalFailure;
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0 || !this.provider || this.externalFailure !== null) return;
    try {
      const vecs = await this.provider.embed(batch.map((b) => b.text));
      batch.forEach((b, i) => this.external.set(b.ordinal, vecs[i]!));
    } catch (err) {
      // An endpoint that is down must not fail the index: the built-in vectors serve, and the index says why.
      if (!(err instanceof EmbeddingProviderError)) throw err;
      this.externalFailure = `${err.kind}: ${err.message}`;
    }
  }

  async finish(store: Store, indexId: string): Promise<void> {
    await this.flush();
    const { model, stats, fileVectors } = this.trainer.finish();
    const useExternal = this.provider !== null && this.externalFailure === null;
    const ids = await store.fileIds(indexId, this.paths);
    const vectors = new Map<number, Float32Array>();
    for (const [ordinal, vec] of useExternal ? this.external : fileVectors) {
      const id = ids.get(this.paths[ordinal]!);
      if (id !== undefined) vectors.set(id, vec);
    }
    const dims = useExternal ? (vectors.values().next().value?.length ?? 0) : model.dims;
    await store.putSemantic(indexId, model.serialize(), vectors, {
      modelFormat: MODEL_FORMAT,
      vectors: { provider: useExternal ? this.provider!.kind : "builtin", model: useExternal ? this.provider!.model : null, dims },
      training: stats,
      ...(this.externalFailure ? { fallback: this.externalFailure } : {}),
    });
  }
}

/**
 * After an in-place update: the changed files' vectors from the index's model (the model itself is retrained only
 * by the next full build). Removed and replaced files lost theirs with their rows.
 */
export async function embedChangedFiles(store: Store, indexId: string, upsert: readonly FileInput[], provider: EmbeddingProvider | null = null): Promise<void> {
  const stored = await store.getSemantic(indexId);
  if (!stored) return;
  const model = SemanticModel.deserialize(stored.model);
  // Vectors must come from whoever made the index's: the endpoint when it did, else the model.
  const external = stored.meta.vectors.provider !== "builtin" && provider?.kind === stored.meta.vectors.provider ? provider : null;
  if (stored.meta.vectors.provider !== "builtin" && !external) return;
  const rows = upsert.filter((r) => r.terms && r.content !== null);
  if (rows.length === 0) return;
  const ids = await store.fileIds(indexId, rows.map((r) => r.path));
  const vectors = new Map<number, Float32Array>();
  const embedded = external ? await external.embed(rows.map((r) => r.content!.slice(0, EXTERNAL_TEXT_CHARS))).catch(() => null) : null;
  rows.forEach((r, i) => {
    const id = ids.get(r.path);
    const vec = external ? embedded?.[i] : model.embed(distinctTerms(r));
    if (id !== undefined && vec) vectors.set(id, vec);
  });
  await store.putFileVectors(indexId, vectors);
}
