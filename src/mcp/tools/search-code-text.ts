import { scalarText } from "../answer-text.js";
import type { CompactData, CompactJson } from "../../service/tool.js";

/**
 * search_code's compact answer as text, laid out like `rg --heading -n`: a blank line, then each file's heading
 * (its path, then its facts in parentheses: language, module, trust label, content hash, how it was found, a ranked
 * file's score and match count), then its matched lines as `line:text`. Beneath a matched line, an indented
 * `defines …` says what a definition on it defines. A ranked span is `span a-b how` followed by its lines as
 * `line-text` (rg's mark for lines shown around a match), and the reasons for a file's score are `why …` lines.
 * Within a file's block, a line that does not start with a line number is never repository text.
 */

/** Facts said by value alone, in this order; the rest of a file's scalar facts are said as `key value`. */
const PLAIN_FACTS = ["language", "module", "trust", "hash", "retrieval", "freshness"];
/** What the block's lines say, not the heading. */
const BODY_KEYS = new Set(["path", "lines", "spans", "why", "moreLines"]);

function heading(file: CompactData): { line: string; rest: [string, CompactJson][] } {
  const facts: string[] = [];
  for (const k of PLAIN_FACTS) if (file[k] !== undefined && file[k] !== null) facts.push(scalarText(file[k]!));
  if (typeof file.score === "number") facts.push(`score ${file.score}`);
  if (typeof file.matches === "number") facts.push(`${file.matches} matches`);
  const rest: [string, CompactJson][] = [];
  for (const [k, v] of Object.entries(file)) {
    if (BODY_KEYS.has(k) || PLAIN_FACTS.includes(k) || k === "score" || k === "matches" || v === null) continue;
    if (typeof v === "object") rest.push([k, v]);
    else facts.push(`${k} ${scalarText(v)}`);
  }
  return { line: `${scalarText(file.path ?? "")}${facts.length > 0 ? ` (${facts.join(", ")})` : ""}`, rest };
}

/** A span's snippet, its lines numbered from the span's first line; a note the answer's bound added stays as it is. */
function spanLines(span: CompactData): string[] {
  const at = /^(\d+)/.exec(scalarText(span.lines ?? ""));
  const first = at ? Number(at[1]) : null;
  const how = [span.matchType, span.defines !== undefined ? `defines ${scalarText(span.defines)}` : null].filter((x) => x !== null && x !== undefined);
  const out = [`span ${scalarText(span.lines ?? "")}${how.length > 0 ? ` ${how.map((x) => scalarText(x!)).join(" ")}` : ""}`];
  const snippet = typeof span.snippet === "string" ? span.snippet.split("\n") : [];
  snippet.forEach((text, i) => out.push(first === null || text.startsWith("… (") ? text : `${first + i}-${text}`));
  return out;
}

function fileBlock(file: CompactData): string[] {
  const { line, rest } = heading(file);
  const out = ["", line];
  for (const [k, v] of rest) out.push(`${k}: ${JSON.stringify(v)}`);
  if (Array.isArray(file.why)) for (const w of file.why) out.push(`why ${scalarText(w)}`);
  if (Array.isArray(file.lines)) {
    for (const l of file.lines) {
      if (!Array.isArray(l)) continue;
      out.push(`${scalarText(l[0] ?? "")}:${scalarText(l[1] ?? "")}`);
      if (l[2] !== undefined) out.push(`  ${scalarText(l[2])}`);
    }
  }
  if (Array.isArray(file.spans)) for (const s of file.spans) if (s !== null && typeof s === "object" && !Array.isArray(s)) out.push(...spanLines(s));
  if (typeof file.moreLines === "number") out.push(`… ${file.moreLines} more matching line(s) in this file`);
  return out;
}

export function renderSearchText(data: CompactData): string[] {
  const results = Array.isArray(data.results) ? data.results : [];
  const out: string[] = [];
  if (results.length === 0 && data.stats === undefined) out.push("no matches");
  for (const r of results) {
    if (r !== null && typeof r === "object" && !Array.isArray(r) && typeof r.path === "string") out.push(...fileBlock(r));
    else out.push(`result: ${JSON.stringify(r)}`);
  }
  for (const [k, v] of Object.entries(data)) if (k !== "results") out.push(...(out.length > 0 && results.length > 0 ? [""] : []), `${k}: ${JSON.stringify(v)}`);
  return out;
}
