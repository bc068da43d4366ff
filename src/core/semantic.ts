
/** Who made an index's file vectors: the model trained on the repository, or the operator's embeddings endpoint. */
export type EmbeddingProviderKind = "builtin" | "openai_compatible";

/**
 * What an index's semantic data was made with, stored beside it: a query must embed with the same provider and
 * model as the files were, or their cosines mean nothing.
 */
export interface SemanticMeta {
  /** SemanticModel's serialization format. */
  modelFormat: number;
  vectors: {
    provider: EmbeddingProviderKind;
    /** The endpoint's model name (null for the built-in model). */
    model: string | null;
    dims: number;
  };
  training: TrainingStats;
  /** Set when the operator's endpoint failed during the build and the built-in vectors were stored instead. */
  fallback?: string;
}

/** An index's stored semantic data, as Store.getSemantic returns it. */
export interface StoredSemantic {
  /** SemanticModel.serialize() of the model trained on the index (query expansion, built-in embeddings). */
  model: Buffer;
  meta: SemanticMeta;
  createdAt: string;
}

/** What training saw and kept, stored with the model for inspect_index and benchmarks. */
export interface TrainingStats {
  documentsSeen: number;
  documentsKept: number;
  tokensKept: number;
  /** Documents were kept with probability 2^-sampleLevel. */
  sampleLevel: number;
  vocabulary: number;
  dims: number;
  pairs: number;
  prunedPairs: number;
  nonZeros: number;
}

/**
 * Where text becomes vectors. The built-in provider is the model trained on the repository (nothing leaves the
 * machine); the OpenAI-compatible one posts text to an operator's `/v1/embeddings` endpoint (Ollama, llama.cpp,
 * TEI, a hosted API). Files and queries must be embedded by the same provider and model.
 */
export interface EmbeddingProvider {
  readonly kind: EmbeddingProviderKind;
  /** The endpoint's model name (null for the built-in model), recorded with the index's vectors. */
  readonly model: string | null;
  /** One unit-length vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
