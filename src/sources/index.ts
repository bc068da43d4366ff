import type { OperatorConfig } from "../config/schema.js";
import type { RequestSources } from "../core/sources.js";
import { externalEmbeddings } from "./embeddings.js";
import { createTaskSources } from "./tasks/index.js";

/**
 * The request-time sources of one operator policy: its task sources and its embeddings endpoint. A misconfigured
 * endpoint is no endpoint here; the ranking reports it (`semantic_provider_unavailable`) instead of failing a search.
 */
export function createRequestSources(operator: OperatorConfig, env: NodeJS.ProcessEnv): RequestSources {
  return { tasks: createTaskSources(operator.taskSources, { env }), embeddings: tryExternal(operator, env) };
}

function tryExternal(operator: OperatorConfig, env: NodeJS.ProcessEnv) {
  try {
    return externalEmbeddings(operator.semantic, env);
  } catch {
    return null;
  }
}
