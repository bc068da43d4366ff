import { VALUE_REFERENCE_LANGUAGES, isParsedExtractor } from "../core/symbols.js";
import type { FileRow } from "../store/store.js";
import type { QueryContext } from "./context.js";
import type { PathMatcher } from "./paths.js";
import type { SymbolHit } from "./symbols.js";
import { escapeRegex } from "./text.js";

/** The trigram index needs this many characters; names without such a run are not searched lexically. */
const MIN_NAME_CHARS = 3;
/** Candidate files read per call; past it the answer says the text search was cut. */
const MAX_SCANNED_FILES = 3000;

/**
 * Whole-word mentions of a name that no syntactic reference covers: in files tree-sitter did not parse (languages
 * without a grammar, docs, configuration), and on lines of parsed files in languages whose references are only
 * calls, imports, types and member accesses (`covered` holds the `path:line` of the references already found), where
 * a use as a value would otherwise be missed silently (`covered` null: parsed files are left out, as for call
 * sites). Evidence with `matchType: lexical_mention` and low confidence, never presented as a reference.
 */
export async function lexicalMentions(
  ctx: QueryContext,
  name: string,
  paths: PathMatcher,
  limit: number,
  covered: ReadonlySet<string> | null = null,
): Promise<{ mentions: { hit: SymbolHit; file: FileRow }[]; cut: boolean }> {
  if (name.length < MIN_NAME_CHARS || /[^\x00-\x7f]/.test(name)) return { mentions: [], cut: false };
  const fragments = [name];
  const word = new RegExp(`(?<![\\w$])${escapeRegex(name)}(?![\\w$])`, "g");
  const out: { hit: SymbolHit; file: FileRow }[] = [];
  const query = { fragments, ...(covered === null ? { excludeParsed: true } : {}), ...(paths.prefix ? { pathPrefix: paths.prefix } : {}) };
  let scanned = 0;
  let cut = false;
  await ctx.store.scanCandidates(ctx.index.id, query, (cand) => {
    if (++scanned > MAX_SCANNED_FILES) {
      cut = true;
      return false;
    }
    const f = cand.file;
    if (!paths.matches(f.path) || (f.isSecretSuspect && !ctx.policy.includeSecretSuspectFiles) || f.isGenerated || f.isVendored) return true;
    const parsed = isParsedExtractor(f.symbolExtractor);
    // A parsed file of a language whose references include value uses has nothing left to find as text.
    if (parsed && (covered === null || VALUE_REFERENCE_LANGUAGES.has(f.language ?? ""))) return true;
    const lines = cand.content.split("\n");
    for (let i = 0; i < lines.length && out.length < limit; i++) {
      if (parsed && covered!.has(`${f.path}:${i + 1}`)) continue;
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
          reason: parsed
            ? `whole-word mention that no ${f.language ?? ""} reference covers: a use as a value (an argument, an assignment) is not parsed in this language`
            : f.symbolExtractor === "lexical"
              ? "whole-word mention in a language without a grammar"
              : "whole-word mention in text that is not parsed for symbols",
        },
      });
    }
    return out.length < limit;
  });
  return { mentions: out, cut };
}
