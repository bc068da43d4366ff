
/** Who made an index's file vectors: the model trained on the repository, or the operator's embeddings endpoint. */
export const EMBEDDING_PROVIDER_KINDS = ["builtin", "openai_compatible"] as const;
export type EmbeddingProviderKind = (typeof EMBEDDING_PROVIDER_KINDS)[number];

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

/** Why the embeddings endpoint failed: its configuration, the network, a timeout, an HTTP status, or an unusable answer. */
export const EMBEDDING_ERROR_KINDS = ["config", "network", "timeout", "http", "invalid_response"] as const;
export type EmbeddingErrorKind = (typeof EMBEDDING_ERROR_KINDS)[number];

/** An expected failure of the embeddings endpoint, with a message fit for the operator (no URL, never the key). */
export class EmbeddingProviderError extends Error {
  constructor(
    readonly kind: EmbeddingErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "EmbeddingProviderError";
  }
}

/** Inputs per request: small enough for local servers' batch limits, large enough to amortize the round trip. */
export const DEFAULT_EMBEDDING_BATCH = 64;
