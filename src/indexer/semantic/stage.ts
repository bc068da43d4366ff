import type { FileInput, Store } from "../../store/store.js";
import { splitIdentifier } from "../../core/terms.js";
import { MODEL_FORMAT, SemanticModel } from "./model.js";
import { SemanticTrainer } from "./trainer.js";
import { type EmbeddingProvider, type StoredSemantic, DEFAULT_EMBEDDING_BATCH, EmbeddingProviderError } from "../../core/semantic.js";

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
 * An index's semantic data and model kept between in-place updates (a delta never retrains the model; a build makes
 * a new index id, which invalidates it): a kernel model is read and decoded in ~60 ms otherwise, on every update.
 */
export interface SemanticCache {
  indexId: string | null;
  stored: StoredSemantic | null;
  model: SemanticModel | null;
}

/** The changed files' new vectors by path, and why some could not be made (the endpoint failed), for the update's stats. */
export interface ChangedVectors {
  byPath: Map<string, Float32Array>;
  failure: { files: number; reason: string } | null;
}

/**
 * Before an in-place update is written: the changed files' vectors from whoever made the index's (the model itself
 * is retrained only by the next full build; an endpoint's vectors come from that endpoint). An endpoint that fails
 * leaves those files without vectors, and the failure is returned to be recorded in the update's stats, not
 * swallowed. Null when the index has no semantic data or its vectors' maker is not at hand.
 */
export async function vectorsForChangedFiles(
  store: Store,
  indexId: string,
  upsert: readonly FileInput[],
  provider: EmbeddingProvider | null = null,
  cache: SemanticCache | null = null,
): Promise<ChangedVectors | null> {
  const stored = cache?.indexId === indexId ? cache.stored : await store.getSemantic(indexId);
  if (cache && cache.indexId !== indexId) Object.assign(cache, { indexId, stored, model: null });
  if (!stored) return null;
  // Vectors must come from whoever made the index's: the endpoint when it did, else the model.
  const external = stored.meta.vectors.provider !== "builtin" && provider?.kind === stored.meta.vectors.provider ? provider : null;
  if (stored.meta.vectors.provider !== "builtin" && !external) return null;
  const rows = upsert.filter((r) => r.terms && r.content !== null);
  const byPath = new Map<string, Float32Array>();
  if (external) {
    if (rows.length === 0) return { byPath, failure: null };
    try {
      const embedded = await external.embed(rows.map((r) => r.content!.slice(0, EXTERNAL_TEXT_CHARS)));
      rows.forEach((r, i) => embedded[i] && byPath.set(r.path, embedded[i]));
    } catch (err) {
      if (!(err instanceof EmbeddingProviderError)) throw err;
      return { byPath, failure: { files: rows.length, reason: `${err.kind}: ${err.message}` } };
    }
    return { byPath, failure: null };
  }
  const model = cache?.model ?? SemanticModel.deserialize(stored.model);
  if (cache) cache.model = model;
  for (const r of rows) byPath.set(r.path, model.embed(distinctTerms(r)));
  return { byPath, failure: null };
}

/** After the update is written: the vectors under the changed files' ids (replaced files lost theirs with their rows). */
export async function storeChangedVectors(store: Store, indexId: string, vectors: ChangedVectors): Promise<void> {
  if (vectors.byPath.size === 0) return;
  const ids = await store.fileIds(indexId, [...vectors.byPath.keys()]);
  const byId = new Map<number, Float32Array>();
  for (const [path, vec] of vectors.byPath) {
    const id = ids.get(path);
    if (id !== undefined) byId.set(id, vec);
  }
  await store.putFileVectors(indexId, byId);
}
