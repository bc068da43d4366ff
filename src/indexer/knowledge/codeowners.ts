/**
 * CODEOWNERS: which file is in force, what its rules say, and who owns a given path.
 *
 * Pure functions, no I/O. Semantics follow what GitHub documents (gitignore-like patterns, last match wins, an
 * entry without owners leaves matching paths unowned, `!` negation and `[...]` ranges are not supported) and GitLab's
 * sections (`[Section]`, optional `^[Section]`, approval counts `[Section][2]`, default owners on the header line;
 * each section decides independently and the owners of all sections combine).
 */

import type { ManifestWarning, OwnershipFile, OwnershipRule } from "../../core/knowledge.js";

/** CODEOWNERS locations, in the order hosts search them; the first present one is in force. */
export const CODEOWNERS_LOCATIONS: readonly string[] = Object.freeze([
  ".github/CODEOWNERS",
  "CODEOWNERS",
  "docs/CODEOWNERS",
  ".gitlab/CODEOWNERS",
]);

export interface OwnershipDecision {
  path: string;
  /** Owners from the deciding rules of required sections (union, in order of sections, first spelling kept). */
  owners: string[];
  /** Owners from the deciding rules of optional (GitLab `^[Section]`) sections, less those already in `owners`. */
  reviewers: string[];
  /** The deciding rule per section (last match wins within a section), in order of sections. */
  rules: OwnershipRule[];
  /** high: a specific rule supplied an owner; medium: only catch-all rules (`*`, `**`, `/**`) did; none: unowned. */
  confidence: "high" | "medium" | "none";
  /** No rule matched, or every deciding rule has no owners (explicitly unowned). */
  unowned: boolean;
}

/** Strips a leading `./` (repeatedly) and leading slashes, so repository paths compare the same way. */
function normalizePath(path: string): string {
  let p = path.trim();
  for (;;) {
    if (p.startsWith("./")) p = p.slice(2);
    else if (p.startsWith("/")) p = p.slice(1);
    else break;
  }
  return p;
}

export function isCodeownersPath(path: string): boolean {
  return CODEOWNERS_LOCATIONS.includes(normalizePath(path));
}

/** Parse the file in force (first present in CODEOWNERS_LOCATIONS order) and list the others as shadowed. */
export function readOwnership(files: { path: string; content: string }[]): OwnershipFile {
  const present = new Map<string, string>();
  for (const file of files) {
    const path = normalizePath(file.path);
    if (!CODEOWNERS_LOCATIONS.includes(path) || present.has(path)) continue;
    present.set(path, file.content);
  }
  const inForce = CODEOWNERS_LOCATIONS.find((location) => present.has(location));
  if (inForce === undefined) return { path: null, shadowed: [], rules: [], warnings: [] };
  const shadowed = [...present.keys()].filter((p) => p !== inForce).sort(compareStrings);
  const { rules, warnings } = parseCodeowners(inForce, present.get(inForce) ?? "");
  return { path: inForce, shadowed, rules, warnings };
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Parsing

/**
 * Splits a line into whitespace-separated tokens. A backslash escapes the next character (kept, with the backslash,
 * in the token: patterns interpret escapes when compiled). An unescaped `#` that starts a token begins a comment.
 */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let current = "";
  let inToken = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === "\\" && i + 1 < text.length) {
      current += ch + (text[i + 1] as string);
      inToken = true;
      i++;
      continue;
    }
    if (ch === " " || ch === "\t") {
      if (inToken) tokens.push(current);
      current = "";
      inToken = false;
      continue;
    }
    if (ch === "#" && !inToken) break;
    current += ch;
    inToken = true;
  }
  if (inToken) tokens.push(current);
  return tokens;
}

const USER_OR_TEAM = /^@[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)*$/;
const GITLAB_ROLE = /^@@(?:developers?|maintainers?|owners?)$/i;
const EMAIL = /^[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

function isValidOwner(token: string): boolean {
  return USER_OR_TEAM.test(token) || GITLAB_ROLE.test(token) || EMAIL.test(token);
}

/** Index of the first unescaped occurrence of one of `chars` in a raw pattern, or -1. */
function findUnescaped(raw: string, chars: string): number {
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (ch === "\\") {
      i++;
      continue;
    }
    if (chars.includes(ch)) return i;
  }
  return -1;
}

interface SectionHeader {
  name: string;
  optional: boolean;
  approvals: number | undefined;
  defaultOwnerTokens: string[];
}

/**
 * Reads a GitLab section header. Returns "not-header" when the line is better read as an entry (for example
 * `[abc].js @x`, which is then reported as an unsupported character range), "malformed" when it starts like a
 * header but cannot be one.
 */
function parseSectionHeader(line: string): SectionHeader | "malformed" | "not-header" {
  const optional = line.startsWith("^[");
  const start = optional ? 1 : 0;
  if (line[start] !== "[") return "not-header";
  const close = line.indexOf("]", start + 1);
  if (close < 0) return "malformed";
  const name = line.slice(start + 1, close).trim();
  let rest = line.slice(close + 1);
  let approvals: number | undefined;
  const count = /^\[(\d+)\]/.exec(rest);
  if (count) {
    approvals = Number(count[1]);
    rest = rest.slice(count[0].length);
  } else if (rest.startsWith("[")) {
    return "malformed";
  }
  if (rest !== "" && !/^[ \t]/.test(rest)) return "not-header";
  if (name === "") return "malformed";
  return { name, optional, approvals, defaultOwnerTokens: tokenize(rest) };
}

interface CurrentSection {
  name: string | null;
  optional: boolean;
  approvals: number | undefined;
  defaultOwners: string[];
}

export function parseCodeowners(path: string, content: string): { rules: OwnershipRule[]; warnings: ManifestWarning[] } {
  const rules: OwnershipRule[] = [];
  const warnings: ManifestWarning[] = [];
  const warn = (line: number, reason: string): void => {
    warnings.push({ path, line, reason });
  };
  /** First spelling and flags of every section seen, by lower-cased name, so repeated headers merge. */
  const sections = new Map<string, { name: string; optional: boolean; approvals: number | undefined }>();
  let section: CurrentSection = { name: null, optional: false, approvals: undefined, defaultOwners: [] };

  const validOwners = (tokens: string[], lineNo: number): string[] => {
    const owners: string[] = [];
    for (const token of tokens) {
      if (isValidOwner(token)) owners.push(token);
      else warn(lineNo, `invalid owner "${token}": expected @user, @org/team, @group/subgroup or an email address`);
    }
    return owners;
  };

  const lines = content.replace(/^\uFEFF/, "").split(/\r\n|\n|\r/);
  lines.forEach((rawLine, index) => {
    const lineNo = index + 1;
    const line = rawLine.trim();
    if (line === "" || line.startsWith("#")) return;

    if (line.startsWith("[") || line.startsWith("^[")) {
      const header = parseSectionHeader(line);
      if (header === "malformed") {
        warn(lineNo, `malformed section header "${line}"`);
        return;
      }
      if (header !== "not-header") {
        const key = header.name.toLowerCase();
        let known = sections.get(key);
        if (!known) {
          known = { name: header.name, optional: header.optional, approvals: header.approvals };
          sections.set(key, known);
        } else if (known.approvals === undefined && header.approvals !== undefined) {
          known.approvals = header.approvals;
        }
        section = {
          name: known.name,
          optional: known.optional,
          approvals: known.approvals,
          defaultOwners: validOwners(header.defaultOwnerTokens, lineNo),
        };
        return;
      }
    }

    const tokens = tokenize(line);
    const pattern = tokens[0];
    if (pattern === undefined) return;
    if (pattern.startsWith("!")) {
      warn(lineNo, `negation pattern "${pattern}" is not supported; entry skipped`);
      return;
    }
    if (findUnescaped(pattern, "[]") >= 0) {
      warn(lineNo, `character range in pattern "${pattern}" is not supported; entry skipped`);
      return;
    }
    const ownerTokens = tokens.slice(1);
    let owners = validOwners(ownerTokens, lineNo);
    if (ownerTokens.length > 0 && owners.length === 0) {
      // The author meant to name owners; reading the entry as "explicitly unowned" would misstate their intent.
      warn(lineNo, `entry for "${pattern}" has no valid owner; entry skipped`);
      return;
    }
    let inheritedOwners = false;
    if (owners.length === 0 && section.defaultOwners.length > 0) {
      owners = [...section.defaultOwners];
      inheritedOwners = true;
    }
    const rule: OwnershipRule = {
      ordinal: rules.length,
      pattern,
      owners,
      section: section.name,
      optional: section.optional,
      source: path,
      line: lineNo,
    };
    if (section.approvals !== undefined) rule.approvals = section.approvals;
    if (inheritedOwners) rule.inheritedOwners = true;
    rules.push(rule);
  });

  return { rules, warnings };
}

// ---------------------------------------------------------------------------------------------------------------
// Pattern compilation

export interface CompiledPattern {
  regex: RegExp;
  /** Matches every path: `*`, `**`, `/**`, a `**` folder followed by `*`, or a bare `/`. */
  catchAll: boolean;
}

const REGEX_SPECIAL = /[\\^$.|?*+()[\]{}]/;

/** One path segment (no slashes) to a regular expression: `*` within the segment, `?` one character. */
function segmentToRegex(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i] as string;
    if (ch === "\\" && i + 1 < segment.length) {
      const next = segment[++i] as string;
      out += REGEX_SPECIAL.test(next) ? `\\${next}` : next;
    } else if (ch === "*") {
      while (segment[i + 1] === "*") i++;
      out += "[^/]*";
    } else if (ch === "?") {
      out += "[^/]";
    } else {
      out += REGEX_SPECIAL.test(ch) ? `\\${ch}` : ch;
    }
  }
  return out;
}

/** Splits a raw pattern on unescaped slashes. */
function splitSegments(raw: string): string[] {
  const segments: string[] = [];
  let current = "";
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i] as string;
    if (ch === "\\" && i + 1 < raw.length) {
      current += ch + (raw[i + 1] as string);
      i++;
    } else if (ch === "/") {
      segments.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  segments.push(current);
  return segments;
}

/**
 * CODEOWNERS pattern to a matcher:
 * - a leading `/`, or a slash before the last character, anchors the pattern at the root; otherwise it matches at
 *   any depth;
 * - a trailing `/` matches a directory and everything beneath it; a pattern naming a directory without the trailing
 *   slash also matches everything beneath it;
 * - a last segment of exactly `*` matches direct children only (`docs/*` does not own `docs/a/b.md`);
 * - `*` and `?` stay within a segment; a `**` segment spans any number of segments, whether it leads (any depth),
 *   trails (everything beneath) or sits between two segments (zero or more folders);
 * - matching is case-sensitive.
 */
export function compilePattern(pattern: string): CompiledPattern {
  let raw = pattern;
  const rooted = raw.startsWith("/");
  while (raw.startsWith("/")) raw = raw.slice(1);
  let dirOnly = false;
  while (raw.endsWith("/") && !raw.endsWith("\\/")) {
    raw = raw.slice(0, -1);
    dirOnly = true;
  }
  if (raw === "") return { regex: /^/, catchAll: true };

  const segments: string[] = [];
  for (const segment of splitSegments(raw)) {
    if (segment === "") continue;
    if (segment === "**" && segments[segments.length - 1] === "**") continue;
    segments.push(segment);
  }
  const anchored = rooted || segments.length > 1;
  const last = segments[segments.length - 1] as string;

  let body = "";
  segments.forEach((segment, i) => {
    const isFirst = i === 0;
    const isLast = i === segments.length - 1;
    if (segment === "**") {
      if (isLast) body += isFirst ? ".*" : "/.*";
      else body += isFirst ? "(?:.*/)?" : "/(?:.*/)?";
      return;
    }
    const separator = isFirst || segments[i - 1] === "**" ? "" : "/";
    body += separator + segmentToRegex(segment);
  });

  let suffix: string;
  if (last === "**") suffix = "";
  else if (dirOnly) suffix = "/.*";
  else if (last === "*") suffix = "";
  else suffix = "(?:/.*)?";

  const prefix = anchored ? "^" : "^(?:.*/)?";
  const regex = new RegExp(`${prefix}${body}${suffix}$`, "s");

  const leading = segments.slice(0, -1);
  const catchAll =
    !dirOnly &&
    (segments.every((s) => s === "**") ||
      (last === "*" && leading.every((s) => s === "**") && (leading.length > 0 || !anchored)));
  return { regex, catchAll };
}

// ---------------------------------------------------------------------------------------------------------------
// Deciding

interface CompiledRule {
  rule: OwnershipRule;
  regex: RegExp;
  catchAll: boolean;
}

function pushUnique(target: string[], seen: Set<string>, values: readonly string[]): void {
  for (const value of values) {
    const key = value.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    target.push(value);
  }
}

/** A compiled matcher, so deciding thousands of paths does not recompile patterns. */
export function createOwnershipMatcher(rules: OwnershipRule[]): (path: string) => OwnershipDecision {
  const ordered = [...rules].sort((a, b) => a.ordinal - b.ordinal || a.line - b.line);
  /** Sections in order of their first entry; the default (null) section is keyed "" and section keys by "[name". */
  const sections = new Map<string, CompiledRule[]>();
  for (const rule of ordered) {
    const key = rule.section === null ? "" : `[${rule.section.toLowerCase()}`;
    const { regex, catchAll } = compilePattern(rule.pattern);
    const list = sections.get(key);
    const compiled: CompiledRule = { rule, regex, catchAll };
    if (list) list.push(compiled);
    else sections.set(key, [compiled]);
  }
  const groups = [...sections.values()];

  return (input: string): OwnershipDecision => {
    const path = normalizePath(input);
    const deciding: CompiledRule[] = [];
    for (const group of groups) {
      for (let i = group.length - 1; i >= 0; i--) {
        const candidate = group[i] as CompiledRule;
        if (candidate.regex.test(path)) {
          deciding.push(candidate);
          break;
        }
      }
    }

    const owners: string[] = [];
    const ownerKeys = new Set<string>();
    for (const d of deciding) if (!d.rule.optional) pushUnique(owners, ownerKeys, d.rule.owners);
    const reviewers: string[] = [];
    const reviewerKeys = new Set(ownerKeys);
    for (const d of deciding) if (d.rule.optional) pushUnique(reviewers, reviewerKeys, d.rule.owners);

    const contributing = deciding.filter((d) => d.rule.owners.length > 0);
    const unowned = contributing.length === 0;
    const confidence: OwnershipDecision["confidence"] = unowned
      ? "none"
      : contributing.every((d) => d.catchAll)
        ? "medium"
        : "high";
    return { path, owners, reviewers, rules: deciding.map((d) => d.rule), confidence, unowned };
  };
}

export function decideOwnership(rules: OwnershipRule[], path: string): OwnershipDecision {
  return createOwnershipMatcher(rules)(path);
}
