import { parse as parseYaml } from "yaml";
import { isDocPath, isInstructionFile } from "../../policy/labels.js";
import type { DocSourceType, RepoDoc } from "../../core/knowledge.js";

/** Headings kept per document: enough to outline it, bounded for the kernel's 10k-page Documentation tree. */
const MAX_HEADINGS = 60;
const MAX_HEADING_CHARS = 200;
/** OpenAPI descriptions larger than this are listed by path only (their title is not parsed). */
const MAX_OPENAPI_PARSE_BYTES = 512 * 1024;

const OPENAPI_NAME = /^(openapi|swagger)([.-][\w.-]*)?\.(ya?ml|json)$/i;
const PACKAGE_DOC_NAMES = new Set(["package-info.java", "doc.go", "package.md", "module-info.md"]);

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Documentation the index describes as `repo_doc`: prose docs, OpenAPI descriptions and package docs. */
export function isDocumentPath(path: string): boolean {
  const name = baseName(path);
  return isDocPath(path) || OPENAPI_NAME.test(name) || PACKAGE_DOC_NAMES.has(name);
}

function sourceTypeOf(path: string): DocSourceType {
  const lower = path.toLowerCase();
  const name = baseName(lower);
  if (isInstructionFile(path)) return "instructions";
  if (OPENAPI_NAME.test(name)) return "openapi";
  if (PACKAGE_DOC_NAMES.has(name)) return "package_doc";
  if (/(^|\/)(adrs?|decisions|architecture-decisions)\//.test(lower) || /^adr[-_]?\d+/.test(name)) return "adr";
  if (/migrat|upgrad/.test(name)) return "migration_guide";
  if (/^(changelog|changes|history|news|release[-_]?notes)([.-]|$)/.test(name)) return "changelog";
  if (/^contributing([.-]|$)/.test(name)) return "contributing";
  if (/^readme([.-]|$)/.test(name)) return "readme";
  return "docs";
}

type Heading = RepoDoc["headings"][number];

function clean(text: string): string {
  return text.replace(/\s+#+\s*$/, "").replace(/\s+/g, " ").trim().slice(0, MAX_HEADING_CHARS);
}

/** Markdown ATX (`## x`) and setext (underlined) headings, outside fenced code blocks. */
function markdownHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length && out.length < MAX_HEADINGS; i++) {
    const line = lines[i]!;
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (fence === null) fence = fenceMatch[1]![0]!;
      else if (fenceMatch[1]![0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const atx = /^\s{0,3}(#{1,6})\s+(.+)$/.exec(line);
    if (atx) {
      const text = clean(atx[2]!);
      if (text) out.push({ level: atx[1]!.length, text, line: i + 1 });
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && line.trim() !== "" && /^\s{0,3}(=+|-+)\s*$/.test(next) && !/^\s{0,3}[-*+>|]/.test(line)) {
      out.push({ level: next.trim()[0] === "=" ? 1 : 2, text: clean(line), line: i + 1 });
      i += 1;
    }
  }
  return out;
}

/** reStructuredText section titles: a line underlined (optionally overlined) by one punctuation character. */
function rstHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  const levels: string[] = [];
  for (let i = 0; i + 1 < lines.length && out.length < MAX_HEADINGS; i++) {
    const title = lines[i]!;
    const under = lines[i + 1]!;
    if (!title.trim() || /^\s/.test(title) || !/^([=\-~^"'`#*+:.])\1+\s*$/.test(under)) continue;
    if (under.trimEnd().length < title.trimEnd().length) continue;
    if (/^([=\-~^"'`#*+:.])\1+\s*$/.test(title)) continue;
    const over = i > 0 && lines[i - 1]!.trim() === under.trim();
    const key = (over ? "o" : "u") + under[0];
    let level = levels.indexOf(key);
    if (level < 0) {
      levels.push(key);
      level = levels.length - 1;
    }
    out.push({ level: level + 1, text: clean(title), line: i + 1 });
    i += 1;
  }
  return out;
}

/** AsciiDoc section titles: `= Title`, `== Section`. */
function asciidocHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  for (let i = 0; i < lines.length && out.length < MAX_HEADINGS; i++) {
    const m = /^(={1,6})\s+(.+)$/.exec(lines[i]!);
    if (m) out.push({ level: m[1]!.length, text: clean(m[2]!), line: i + 1 });
  }
  return out;
}

function openapiTitle(content: string, path: string): string | null {
  if (content.length > MAX_OPENAPI_PARSE_BYTES) return null;
  try {
    const doc = (path.toLowerCase().endsWith(".json") ? JSON.parse(content) : parseYaml(content)) as unknown;
    const info = (doc as { info?: { title?: unknown; version?: unknown } } | null)?.info;
    if (info && typeof info.title === "string") {
      return clean(typeof info.version === "string" ? `${info.title} ${info.version}` : info.title);
    }
  } catch {
    // An unparsable description keeps its path; the title is simply unknown.
  }
  return null;
}

/** First comment line of a package doc (`// Package x does y.`, `/** ... *\/`). */
function packageDocTitle(lines: string[]): string | null {
  for (const line of lines) {
    const m = /^\s*(?:\/\/+|\/\*\*?|\*)\s*(\S.*?)\s*(?:\*\/)?$/.exec(line);
    if (m && m[1] && !m[1].startsWith("@")) return clean(m[1]);
  }
  return null;
}

/** Title, outline and type of one document, from its text at the indexed commit. */
export function extractDoc(file: { path: string; content: string; contentHash: string; hasInstructionLikeText: boolean }): RepoDoc {
  const lines = file.content.split(/\r?\n/);
  const sourceType = sourceTypeOf(file.path);
  const lower = file.path.toLowerCase();
  let headings: Heading[] = [];
  let title: string | null = null;
  if (sourceType === "openapi") title = openapiTitle(file.content, file.path);
  else if (sourceType === "package_doc") title = packageDocTitle(lines);
  else {
    if (/\.rst$/.test(lower)) headings = rstHeadings(lines);
    else if (/\.(adoc|asciidoc)$/.test(lower)) headings = asciidocHeadings(lines);
    else if (/\.(md|mdx|markdown)$/.test(lower) || !lower.includes(".")) headings = markdownHeadings(lines);
    const top = headings.reduce<Heading | null>((best, h) => (best === null || h.level < best.level ? h : best), null);
    title = top?.text ?? (lines.find((l) => l.trim() !== "")?.trim().slice(0, MAX_HEADING_CHARS) || null);
  }
  return {
    docId: file.path,
    path: file.path,
    title,
    sourceType,
    headings,
    contentHash: file.contentHash,
    lineCount: file.content === "" ? 0 : lines.length - (file.content.endsWith("\n") ? 1 : 0),
    hasInstructionLikeText: file.hasInstructionLikeText,
  };
}
