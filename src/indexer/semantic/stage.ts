import type { FileInput, Store } from "../../store/store.js";
import { splitIdentifier } from "../terms.js";
import { MODEL_FORMAT, SemanticModel } from "./model.js";
import { SemanticTrainer } from "./trainer.js";

/** Identifiers in order of appearance, as the trainer reads a document. */
const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]{1,63}/g;
/** Sub-words taken from one file for training: a huge file says no more about word company than a large one. */
const MAX_DOC_SUBWORDS = 200_000;
const MIN_SUBWORD = 2;

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

  /** Call in path order (the sample depends on arrival order). */
  add(row: FileInput): void {
    if (!row.terms || row.content === null) return;
    const ordinal = this.paths.push(row.path) - 1;
    const learn = this.trainer.wantsNext() && !row.isGenerated && !row.isVendored;
    this.trainer.add(learn ? orderedSubwords(row.content) : [], { id: ordinal, terms: distinctTerms(row) });
  }

  async finish(store: Store, indexId: string): Promise<void> {
    const { model, stats, fileVectors } = this.trainer.finish();
    const ids = new Map((await store.candidateFiles(indexId, { fragments: [] }, Number.MAX_SAFE_INTEGER)).files.map((f) => [f.path, f.id]));
    const vectors = new Map<number, Float32Array>();
    for (const [ordinal, vec] of fileVectors) {
      const id = ids.get(this.paths[ordinal]!);
      if (id !== undefined) vectors.set(id, vec);
    }
    await store.putSemantic(indexId, model.serialize(), vectors, { modelFormat: MODEL_FORMAT, vectors: { provider: "builtin", model: null, dims: model.dims }, training: stats });
  }
}

/**
 * After an in-place update: the changed files' vectors from the index's model (the model itself is retrained only
 * by the next full build). Removed and replaced files lost theirs with their rows.
 */
export async function embedChangedFiles(store: Store, indexId: string, upsert: readonly FileInput[]): Promise<void> {
  const stored = await store.getSemantic(indexId);
  if (!stored) return;
  const model = SemanticModel.deserialize(stored.model);
  const rows = upsert.filter((r) => r.terms && r.content !== null);
  if (rows.length === 0) return;
  const wanted = new Set(rows.map((r) => r.path));
  const ids = new Map<string, number>();
  for (const r of rows) {
    const found = await store.candidateFiles(indexId, { fragments: [], pathPrefix: r.path }, 10);
    for (const f of found.files) if (wanted.has(f.path)) ids.set(f.path, f.id);
  }
  const vectors = new Map<number, Float32Array>();
  for (const r of rows) {
    const id = ids.get(r.path);
    if (id !== undefined) vectors.set(id, model.embed(distinctTerms(r)));
  }
  await store.putFileVectors(indexId, vectors);
}
