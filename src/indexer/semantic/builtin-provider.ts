import type { EmbeddingProvider } from "../../core/semantic.js";
import type { SemanticModel } from "./model.js";

/** The model trained on the repository, as a provider: `split` turns text into the sub-words the model knows. */
export function builtinProvider(model: SemanticModel, split: (text: string) => string[]): EmbeddingProvider {
  return {
    kind: "builtin",
    model: null,
    embed: async (texts) => texts.map((t) => model.embed(split(t))),
  };
}
