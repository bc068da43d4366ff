import type { FileRow } from "../store/store.js";
import type { QueryContext } from "./context.js";
import type { PathMatcher } from "./paths.js";
import { matchesQualifier, parseSymbol } from "./symbols.js";

/** A definition that search_code merges into its results. */
export interface DefinitionMatch {
  file: FileRow;
  kind: string;
  qualifiedName: string;
  signature: string;
  startLine: number;
  endLine: number;
  startColumn: number;
  /** The name equals the query (not only a prefix of it). */
  exact: boolean;
}

/** Queries that can name a symbol: identifiers, optionally qualified (`Quote#get`, `pkg.Quote`, `ns::f`). */
const SYMBOL_LIKE = /^[A-Za-z_$][\w$]*(?:(?:\.|#|::)[A-Za-z_$][\w$]*)*$/;

/** Definitions for a search query: exact names (hybrid) or names starting with the query (symbol mode). */
export async function definitionsFor(
  ctx: QueryContext,
  query: string,
  opts: { prefix: boolean; pathFilter: PathMatcher; limit: number },
): Promise<DefinitionMatch[]> {
  const q = query.trim();
  if (!SYMBOL_LIKE.test(q)) return [];
  const { name, qualified } = parseSymbol(q);
  const base = { limit: opts.limit, ...(opts.pathFilter.prefix ? { pathPrefix: opts.pathFilter.prefix } : {}) };
  const rows = opts.prefix && qualified === null
    ? await ctx.store.findSymbols(ctx.index.id, { namePrefix: name, ...base })
    : await ctx.store.findSymbols(ctx.index.id, { name, ...base });
  return rows
    .filter((s) => opts.pathFilter.matches(s.path) && matchesQualifier(s, qualified))
    .map((s) => ({
      file: s.file,
      kind: s.kind,
      qualifiedName: s.qualifiedName,
      signature: s.signature,
      startLine: s.startLine,
      endLine: s.endLine,
      startColumn: s.startColumn,
      exact: s.name === name,
    }))
    .sort((a, b) => Number(b.exact) - Number(a.exact));
}
