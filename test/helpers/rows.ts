import type { FileInput } from "../../src/store/store.js";

/** An indexed text file as a store test writes it: one line, a fixed hash, no symbols, nothing special about it. */
export function textFile(path: string, content: string): FileInput {
  return {
    path,
    mtimeMs: null,
    language: "text",
    sizeBytes: content.length,
    lineCount: 1,
    contentHash: `sha256:${"0".repeat(64)}`,
    isBinary: false,
    isGenerated: false,
    isVendored: false,
    generatedReason: null,
    isSecretSuspect: false,
    secretReasons: [],
    hasInstructionLikeText: false,
    skipReason: null,
    skipDetail: null,
    symbolStatus: null,
    symbolExtractor: null,
    symbolDetail: null,
    content,
  };
}
