import type { FileRow } from "../store/store.js";
import type { QueryContext } from "./context.js";
import type { PathMatcher } from "./paths.js";
import type { SymbolHit } from "./symbols.js";
import { escapeRegex } from "./text.js";

/** The trigram index needs this many characters; names without such a run are not searched lexically. */
const MIN_NAME_CHARS = 3;

/**
 * Whole-word mentions of a name in files that tree-sitter did not parse (languages without a grammar, docs,
 * configuration): evidence with `matchType: lexical_mention` and low confidence, never presented as a reference.
 */
export async function lexicalMentions(
  ctx: QueryContext,
  name: string,
  paths: PathMatcher,
  limit: number,
): Promise<{ hit: SymbolHit; file: FileRow }[]> {
  if (name.length < MIN_NAME_CHARS || /[^\x00-\x7f]/.test(name)) return [];
  const fragments = [name];
  const word = new RegExp(`(?<![\\w$])${escapeRegex(name)}(?![\\w$])`, "g");
  const out: { hit: SymbolHit; file: FileRow }[] = [];
  const query = { fragments, excludeExtractor: "tree-sitter" as const, ...(paths.prefix ? { pathPrefix: paths.prefix } : {}) };
  await ctx.store.scanCandidates(ctx.index.id, query, (cand) => {
    const f = cand.file;
    if (!paths.matches(f.path) || (f.isSecretSuspect && !ctx.policy.includeSecretSuspectFiles) || f.isGenerated || f.isVendored) return true;
    const lines = cand.content.split("\n");
    for (let i = 0; i < lines.length && out.length < limit; i++) {
      word.lastIndex = 0;
      const m = word.exec(lines[i]!);
      if (!m) continue;
      out.push({
        file: f,
        hit: {
          path: f.path,
          startLine: i + 1,
          endLine: i + 1,
          column: m.index + 1,
          matchType: "lexical_mention",
          confidence: "low",
          contentHash: f.contentHash,
          language: f.language,
          kind: "reference",
          enclosing: null,
          reason: f.symbolExtractor === "lexical" ? "whole-word mention in a language without a grammar" : "whole-word mention in text that is not parsed for symbols",
        },
      });
    }
    return out.length < limit;
  });
  return out;
}
