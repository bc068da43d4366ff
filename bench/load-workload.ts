/**
 * The tool mix of `npm run bench:load`: what a coding agent asks of a repository, derived from the served
 * repository itself (its own files, the functions and classes they define, phrases from its comments), so every
 * call names something that exists. Each kind of call has a weight; each client draws from the mix with its own
 * seeded generator, so runs compare. Variants that fail when probed before the run are dropped (and reported): the
 * measured run only sends calls that should succeed, and counts every failure as an error.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";

export interface CallSpec {
  tool: string;
  args: Record<string, unknown>;
}

/** One kind of call in the mix (a tool used one way), with the argument sets it draws from. */
export interface CallKind {
  tool: string;
  label: string;
  /** Relative share of the calls. */
  weight: number;
  variants: Record<string, unknown>[];
}

export interface Workload {
  kinds: CallKind[];
  /** Source files the arguments name (for the report). */
  files: number;
  definitions: number;
  /** Ids of the task snapshots written for get_task_context. */
  taskIds: string[];
}

interface SourceFile {
  path: string;
  lines: number;
}

interface Definition {
  name: string;
  path: string;
  line: number;
}

const SOURCE_EXT = new Set([
  ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".py", ".go", ".rs", ".java", ".kt", ".c", ".h", ".cc", ".cpp",
  ".hpp", ".cs", ".rb", ".php", ".swift", ".scala",
]);
const TEST_PATH = /(^|\/)(tests?|__tests__|specs?)\/|[._-](test|spec)\.[^/]+$|(^|\/)test_[^/]+\.py$|_test\.go$/i;
const SKIP_PATH = /(^|\/)(node_modules|vendor|third_party|dist|build|out|fixtures?|testdata|__snapshots__)\//i;
const MIN_FILE_BYTES = 1024;
const MAX_FILE_BYTES = 200 * 1024;
const MAX_FILES = 40;
const MAX_DEFS_PER_FILE = 3;
const MAX_DEFINITIONS = 40;
const MIN_NAME = 5;
/** Lines around a definition read with get_file_slice: an agent reads a function, not a file. */
const SLICE_BEFORE = 5;
const SLICE_LINES = 60;

/** Declarations in the common languages; the name is group 1. Good enough to find names that exist. */
const DEFINITION_PATTERNS: readonly RegExp[] = [
  /^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)/,
  /^\s*(?:export\s+)?(?:default\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:export\s+)?interface\s+([A-Za-z_$][\w$]*)/,
  /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)/,
  /^\s*func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)/,
  /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:async\s+)?fn\s+([A-Za-z_]\w*)/,
];
const MAX_VARIANTS = 12;
const MAX_HEAVY_VARIANTS = 6;
const HEAVY_TOOLS = new Set(["build_context_package", "get_change_impact_context"]);
const COMMENT_LINE = /^\s*(?:\/\/+|#+|\*|\/\*\*?)\s+(.*)$/;

function listFiles(root: string): string[] {
  const out = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  return out.split("\0").filter((p) => p.length > 0).sort();
}

function sizeOf(path: string): number {
  try {
    const st = statSync(path);
    return st.isFile() ? st.size : -1;
  } catch {
    return -1;
  }
}

/** `count` items spread evenly over the list (deterministic, covers the whole tree rather than its first folder). */
function spread<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]!);
}

/** getQuoteService / get_quote_service → "get quote service". */
function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_$]+/g, " ")
    .trim()
    .toLowerCase();
}

function dedupe<T>(items: readonly T[], key: (t: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((t) => {
    const k = key(t);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Reads the repository's tracked files and derives the mix. `taskDir` receives two task snapshots (Markdown with
 * front matter) for get_task_context and build_context_package, naming real files and functions.
 */
export function deriveWorkload(root: string, taskDir: string): Workload {
  const all = listFiles(root);
  const candidates = all.filter((p) => SOURCE_EXT.has(extname(p)) && !SKIP_PATH.test(p));
  const sources = candidates.filter((p) => !TEST_PATH.test(p) && inRange(sizeOf(join(root, p))));
  const picked = spread(sources, MAX_FILES);
  const files: SourceFile[] = [];
  const defs: Definition[] = [];
  const phrases: string[] = [];
  for (const path of picked) {
    const text = readFileSync(join(root, path), "utf8");
    const lines = text.split("\n");
    files.push({ path, lines: lines.length });
    let found = 0;
    for (let i = 0; i < lines.length && found < MAX_DEFS_PER_FILE; i++) {
      for (const re of DEFINITION_PATTERNS) {
        const m = re.exec(lines[i]!);
        if (m?.[1] && m[1].length >= MIN_NAME) {
          defs.push({ name: m[1], path, line: i + 1 });
          found++;
          break;
        }
      }
    }
    const phrase = commentPhrase(lines);
    if (phrase) phrases.push(phrase);
  }
  const definitions = spread(dedupe(defs, (d) => d.name), MAX_DEFINITIONS);
  if (files.length < 3 || definitions.length < 3) {
    throw new Error(`the repository has too few source files or definitions to build a tool mix (${files.length} files, ${definitions.length} definitions)`);
  }
  const tests = spread(candidates.filter((p) => TEST_PATH.test(p)), 8);
  const taskIds = writeTasks(taskDir, definitions);
  return { kinds: buildKinds(files, definitions, dedupe(phrases, (p) => p.toLowerCase()), tests, taskIds), files: files.length, definitions: definitions.length, taskIds };
}

function inRange(size: number): boolean {
  return size >= MIN_FILE_BYTES && size <= MAX_FILE_BYTES;
}

/** Two to four consecutive plain words from the file's first prose comment: a phrase someone would search for. */
function commentPhrase(lines: readonly string[]): string | null {
  for (const line of lines) {
    const m = COMMENT_LINE.exec(line);
    if (!m?.[1]) continue;
    const tokens = m[1].split(/\s+/);
    for (let i = 0; i + 2 < tokens.length; i++) {
      const run = tokens.slice(i, i + 3);
      if (run.every((w) => /^[A-Za-z]{3,}$/.test(w))) return run.join(" ");
    }
  }
  return null;
}

function writeTasks(taskDir: string, defs: readonly Definition[]): string[] {
  mkdirSync(taskDir, { recursive: true });
  const a = defs[0]!;
  const b = defs[Math.floor(defs.length / 2)]!;
  const tasks = [
    {
      id: "LOAD-1",
      title: `Make ${a.name} report what it skipped`,
      body: [
        `# Make ${a.name} report what it skipped`,
        "",
        `\`${a.name}\` in \`${a.path}\` drops inputs it cannot handle without saying so. Callers need to know.`,
        "",
        "## Acceptance criteria",
        "",
        `- ${a.name} returns the skipped inputs with a reason each`,
        "- existing callers keep working unchanged",
        "- a test covers the skipped case",
        "",
        "## Non-goals",
        "",
        "- changing the output format of unrelated commands",
      ],
    },
    {
      id: "LOAD-2",
      title: `Speed up ${b.name}`,
      body: [
        `# Speed up ${b.name}`,
        "",
        `Profiling shows \`${b.name}\` (\`${b.path}\`, line ${b.line}) on the hot path. Cache what can be cached.`,
        "",
        "Acceptance: same results as before, measurably faster on a large repository.",
      ],
    },
  ];
  for (const t of tasks) {
    writeFileSync(join(taskDir, `${t.id}.md`), `---\nid: ${t.id}\ntitle: ${JSON.stringify(t.title)}\nlabels: [load-bench]\n---\n${t.body.join("\n")}\n`);
  }
  return tasks.map((t) => t.id);
}

function buildKinds(files: readonly SourceFile[], defs: readonly Definition[], phrases: readonly string[], tests: readonly string[], taskIds: readonly string[]): CallKind[] {
  const lineCount = new Map(files.map((f) => [f.path, f.lines]));
  const dirs = dedupe(files.map((f) => dirname(f.path)).filter((d) => d !== "."), (d) => d);
  const slice = (d: Definition) => {
    const startLine = Math.max(1, d.line - SLICE_BEFORE);
    const endLine = Math.min(lineCount.get(d.path) ?? d.line + SLICE_LINES, startLine + SLICE_LINES - 1);
    return { path: d.path, startLine, endLine: Math.max(startLine, endLine) };
  };
  const pairs = defs.slice(0, -1).map((d, i) => [d, defs[i + 1]!] as const).filter(([x, y]) => x.path !== y.path);
  const questions = defs.map((d) => `how does ${words(d.name)} work and where is it used`);
  const kinds: CallKind[] = [
    // search_code: identifiers (hybrid: definitions outrank mentions), phrases, a question, a folder-restricted search.
    { tool: "search_code", label: "identifier", weight: 12, variants: defs.map((d) => ({ query: d.name, maxResults: 20 })) },
    { tool: "search_code", label: "phrase (lexical)", weight: 6, variants: phrases.map((p) => ({ query: p, mode: "lexical", maxResults: 20 })) },
    { tool: "search_code", label: "question (ranked)", weight: 5, variants: questions.slice(0, 12).map((q) => ({ query: q, maxResults: 10 })) },
    {
      tool: "search_code",
      label: "identifier in folder",
      weight: 3,
      variants: defs.filter((d) => dirname(d.path) !== ".").map((d) => ({ query: d.name, paths: [dirname(d.path)], maxResults: 20 })),
    },
    { tool: "find_symbol", label: "definition", weight: 10, variants: defs.map((d) => ({ symbol: d.name })) },
    { tool: "find_symbol", label: "references", weight: 4, variants: defs.map((d) => ({ symbol: d.name, intent: "references", maxResults: 20 })) },
    { tool: "find_symbol", label: "call sites", weight: 3, variants: defs.map((d) => ({ symbol: d.name, intent: "call_sites", maxResults: 20 })) },
    { tool: "get_file_slice", label: "around a definition", weight: 16, variants: defs.map(slice) },
    { tool: "get_file_slice", label: "file head", weight: 2, variants: files.map((f) => ({ path: f.path, startLine: 1, endLine: Math.min(f.lines, 120) })) },
    { tool: "find_related_tests", label: "by path", weight: 5, variants: files.map((f) => ({ changedPaths: [f.path] })) },
    { tool: "find_related_tests", label: "by symbol", weight: 2, variants: defs.map((d) => ({ symbols: [d.name] })) },
    { tool: "get_ownership", label: "one file", weight: 3, variants: files.map((f) => ({ paths: [f.path] })) },
    {
      tool: "get_ownership",
      label: "folder and files",
      weight: 1,
      variants: dirs.map((d, i) => ({ paths: [d, files[i % files.length]!.path, files[(i + 7) % files.length]!.path] })),
    },
    { tool: "get_instructions", label: "paths", weight: 4, variants: files.map((f) => ({ paths: [f.path] })) },
    {
      tool: "get_instructions",
      label: "paths + user task",
      weight: 1,
      variants: defs.map((d) => ({ paths: [d.path], userTask: `Fix the bug in ${d.name} and add a test for it` })),
    },
    { tool: "get_task_context", label: "snapshot task", weight: 3, variants: taskIds.map((taskId) => ({ taskId })) },
    {
      tool: "get_change_impact_context",
      label: "bug fix to a function",
      weight: 3,
      variants: defs.slice(0, 12).map((d) => ({ candidatePaths: [d.path], symbols: [d.name], changeType: "bug_fix", budgetTokens: 8000 })),
    },
    {
      tool: "get_change_impact_context",
      label: "refactor of a file",
      weight: 1,
      variants: files.slice(0, 12).map((f) => ({ candidatePaths: [f.path], changeType: "refactor", budgetTokens: 8000 })),
    },
    {
      tool: "build_context_package",
      label: "editing a function",
      weight: 1.5,
      variants: pairs.slice(0, 6).map(([d, e]) => ({
        purpose: "editing",
        goal: `Make ${d.name} handle an empty input without throwing, and keep ${e.name} working`,
        candidatePaths: [d.path, e.path],
        symbols: [d.name],
        contract: { allowedPaths: [d.path, e.path], acceptanceCriteria: [`${d.name} accepts an empty input`, "existing tests pass"] },
        budgetTokens: 8000,
      })),
    },
    {
      tool: "build_context_package",
      label: "planning from a task",
      weight: 0.5,
      variants: taskIds.map((taskId) => ({ purpose: "planning", taskId, budgetTokens: 8000 })),
    },
    { tool: "inspect_index", label: "", weight: 2, variants: [{}] },
  ];
  if (tests.length > 0) {
    kinds.push({ tool: "find_related_tests", label: "a test file", weight: 0.5, variants: tests.map((t) => ({ changedPaths: [t] })) });
  }
  // Each variant is probed once before the run; a dozen per kind keeps that short and the mix varied.
  const cap = (k: CallKind) => (HEAVY_TOOLS.has(k.tool) ? MAX_HEAVY_VARIANTS : MAX_VARIANTS);
  return kinds.filter((k) => k.variants.length > 0).map((k) => ({ ...k, variants: spread(k.variants, cap(k)) }));
}

/** Mulberry32: a small, fast, seeded generator; one per client. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws calls from the mix: a kind by weight, then one of its variants uniformly. */
export function picker(kinds: readonly CallKind[], random: () => number): () => { kind: CallKind; spec: CallSpec } {
  const total = kinds.reduce((s, k) => s + k.weight, 0);
  return () => {
    let r = random() * total;
    let kind = kinds[kinds.length - 1]!;
    for (const k of kinds) {
      r -= k.weight;
      if (r < 0) {
        kind = k;
        break;
      }
    }
    const args = kind.variants[Math.floor(random() * kind.variants.length)]!;
    return { kind, spec: { tool: kind.tool, args } };
  };
}

/** A kind's name in reports: `search_code (identifier)`. */
export const kindName = (k: CallKind): string => (k.label ? `${k.tool} (${k.label})` : k.tool);
