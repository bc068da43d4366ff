import type { EmbeddingProvider } from "./semantic.js";
import type { TaskSources } from "./tasks.js";

/**
 * Request-time inputs from outside the index, built once when the server starts (from the operator's policy file
 * and the environment) and injected: no handler reads configuration or the environment itself.
 */
export interface RequestSources {
  tasks: TaskSources;
  /** The operator's embeddings endpoint for `semantic: true` searches; null when none is configured or it is misconfigured. */
  embeddings: EmbeddingProvider | null;
}
