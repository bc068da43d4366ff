import { testCommandFor } from "../../indexer/knowledge/manifests.js";
import type { RepoModule } from "../../core/knowledge.js";
import { isTestPath, type LabelInput } from "../../policy/labels.js";
import type { FileRow, SymbolRow } from "../../store/store.js";
import { labelInputOf, type QueryContext, type QueryResult } from "../context.js";
import { QueryError } from "../../core/errors.js";
import { parseSymbol } from "../symbols.js";
import { knowledgeOf, requirePath, type Knowledge } from "./load.js";
import type { EvidenceDraft, Warning } from "../../core/evidence.js";

export type TestReason =
  | "changed-test"
  | "name-convention"
  | "same-package"
  | "same-folder"
  | "mirrored-folder"
  | "references-changed-symbol"
  | "same-module";

export interface RelatedTest {
  path: string;
  confidence: "high" | "medium" | "low";
  score: number;
  reasons: TestReason[];
  /** What each reason saw: the source file it relates to, the symbols it references and where. */
  details: string[];
  module: string | null;
  /** Runs just this test with the module's build tool; null when the module has no test command. */
  testCommandHint: string | null;
  contentHash: string;
}

export interface RelatedTestsInput {
  changedPaths?: string[];
  symbols?: string[];
  maxResults?: number;
}

const DEFAULT_RESULTS = 20;
/** Symbols of a changed file whose references are followed (classes and top-level functions first). */
const MAX_SYMBOLS_PER_FILE = 20;
const MAX_REFERENCES_PER_SYMBOL = 400;
/** Names too generic to relate a test to a file by reference. */
const MIN_SYMBOL_NAME = 4;
const GENERIC_NAMES = new Set(["main", "init", "test", "setup", "setUp", "tearDown", "run", "get", "set", "toString", "equals", "hashCode", "constructor"]);
/** Same-module fallback: listed only for a changed file nothing else relates a test to. */
const MAX_SAME_MODULE = 5;

const WEIGHT: Record<TestReason, number> = {
  "changed-test": 10,
  "name-convention": 4,
  "same-package": 2,
  "same-folder": 2,
  "mirrored-folder": 2,
  "references-changed-symbol": 3,
  "same-module": 0.5,
};
/** Languages whose folder is the package: a test beside the code is in the same package. */
const PACKAGE_IS_FOLDER = new Set(["java", "kotlin", "scala", "groovy", "go"]);

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
function dirName(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}
/** `QuoteService.java` → `QuoteService`; `format.ts` → `format`. */
export function stemOf(path: string): string {
  const name = baseName(path);
  const dot = name.indexOf(".", 1);
  return dot < 0 ? name : name.slice(0, dot);
}
/** What a test file is named after: `QuoteServiceTest.java`, `test_quote.py`, `quote.test.ts`, `limiter_test.go` → the subject. */
export function testSubject(path: string): string {
  const name = baseName(path);
  const noExt = name.replace(/(\.(test|spec))?\.[^.]+$/i, "");
  return noExt
    .replace(/^test_/i, "")
    .replace(/(_test|_spec|[-_.](test|spec))$/i, "")
    .replace(/(Tests?|IT|Spec|Suite)$/, "")
    .replace(/^Test(?=[A-Z])/, "");
}
/** Case and separators ignored: quote_service, quoteService and QuoteService are one key. */
export function key(name: string): string {
  return name.toLowerCase().replace(/[-_.]/g, "");
}

/** Folders where tests of a source folder conventionally live. */
function mirroredDirs(dir: string): string[] {
  const out = new Set<string>();
  const swaps: [RegExp, string][] = [
    [/(^|\/)src\/main\//, "$1src/test/"],
    [/(^|\/)src\/main$/, "$1src/test"],
    [/(^|\/)src(\/|$)/, "$1test$2"],
    [/(^|\/)src(\/|$)/, "$1tests$2"],
    [/(^|\/)src(\/|$)/, "$1__tests__$2"],
    [/(^|\/)lib(\/|$)/, "$1test$2"],
    [/(^|\/)lib(\/|$)/, "$1tests$2"],
  ];
  for (const [re, to] of swaps) if (re.test(dir)) out.add(dir.replace(re, to));
  out.add(dir === "" ? "__tests__" : `${dir}/__tests__`);
  out.add(dir === "" ? "tests" : `${dir}/tests`);
  out.add(dir === "" ? "test" : `${dir}/test`);
  out.delete(dir);
  return [...out];
}

interface Candidate {
  file: FileRow;
  reasons: Set<TestReason>;
  details: string[];
  evidence: EvidenceDraft[];
}

/** Symbols worth following from a changed file: declared types and top-level functions, then public methods. */
function followable(symbols: SymbolRow[]): SymbolRow[] {
  const ok = symbols.filter((s) => s.name.length >= MIN_SYMBOL_NAME && !GENERIC_NAMES.has(s.name) && s.visibility !== "private");
  const rank = (s: SymbolRow) => (["class", "interface", "enum", "type"].includes(s.kind) ? 0 : s.container === null ? 1 : 2);
  return ok.sort((a, b) => rank(a) - rank(b) || a.startLine - b.startLine).slice(0, MAX_SYMBOLS_PER_FILE);
}

function qualifiedClassOf(test: FileRow, symbols: SymbolRow[]): string | null {
  const stem = stemOf(test.path);
  const cls = symbols.find((s) => (s.kind === "class" || s.kind === "interface") && s.name === stem);
  return cls ? cls.qualifiedName.replace(/#.*$/, "") : null;
}

/** The repository's test files, looked up by the subject they are named after, by folder and by path. */
interface TestIndex {
  tests: FileRow[];
  bySubject: Map<string, FileRow[]>;
  byDir: Map<string, FileRow[]>;
  /** Test files per stem: test classes sharing a simple name (a.FooTest, b.FooTest) are run by qualified name. */
  stems: Map<string, number>;
  byPath: Map<string, FileRow>;
}

/** A name whose references are followed into tests, and what it stands for (for the details). */
interface Followed {
  name: string;
  from: string;
}

/** What one findRelatedTests call has gathered: the tests related so far, the names to follow, labels and warnings. */
interface Relating {
  ctx: QueryContext;
  index: TestIndex;
  candidates: Map<string, Candidate>;
  followed: Followed[];
  labels: Map<string, LabelInput>;
  warnings: Warning[];
}

/**
 * Tests most likely to prove (or need) a change to the given paths or symbols: naming conventions per ecosystem,
 * same package or folder, tests that reference the changed code, and the module's tests as a last resort. Each
 * with its reasons, a confidence and a command that runs just that test with the module's real build tool.
 */
export async function findRelatedTests(ctx: QueryContext, input: RelatedTestsInput): Promise<QueryResult<RelatedTest>> {
  const changed = [...new Set((input.changedPaths ?? []).map(requirePath))];
  const symbolInputs = input.symbols ?? [];
  if (changed.length === 0 && symbolInputs.length === 0) {
    throw new QueryError("invalid_input", "give changedPaths, symbols or both");
  }
  const k = await knowledgeOf(ctx);
  const maxResults = Math.min(input.maxResults ?? DEFAULT_RESULTS, ctx.policy.maxSearchResults);
  const r: Relating = { ctx, index: indexTests(await k.testFiles()), candidates: new Map(), followed: [], labels: new Map(), warnings: [] };

  await followSymbolInputs(r, symbolInputs, changed);
  const unrelated: string[] = [];
  for (const path of changed) if (!(await relateChangedPath(r, path))) unrelated.push(path);
  await addReferencingTests(r);
  addSameModuleTests(r, k, unrelated);

  const ranked = [...r.candidates.values()]
    .map((c) => ({ c, score: [...c.reasons].reduce((n, x) => n + WEIGHT[x], 0) + Math.max(0, Math.min(2, c.details.filter((d) => d.startsWith("references")).length - 1)) * 0.5 }))
    .sort((a, b) => b.score - a.score || a.c.file.path.localeCompare(b.c.file.path));
  const { items, evidence } = await describeTests(r, k, ranked.slice(0, maxResults));
  const modules = new Map<string, RepoModule>();
  for (const p of changed) {
    const m = k.moduleOf(p);
    if (m) modules.set(m.path, m);
  }
  return {
    items,
    stats: {
      truncated: ranked.length > maxResults,
      candidates: ranked.length,
      changedPaths: changed,
      moduleTestCommands: [...modules.values()].map((m) => ({ module: m.name, path: m.path, command: m.testCommand, source: m.commandSource })),
    },
    evidence,
    labels: r.labels,
    warnings: r.warnings,
  };
}

/** Indexes the test files by subject, folder, stem and path. */
function indexTests(tests: FileRow[]): TestIndex {
  const bySubject = new Map<string, FileRow[]>();
  const byDir = new Map<string, FileRow[]>();
  const stems = new Map<string, number>();
  for (const t of tests) {
    const s = key(testSubject(t.path));
    if (s) (bySubject.get(s) ?? bySubject.set(s, []).get(s)!).push(t);
    const d = dirName(t.path);
    (byDir.get(d) ?? byDir.set(d, []).get(d)!).push(t);
    const stem = key(stemOf(t.path));
    stems.set(stem, (stems.get(stem) ?? 0) + 1);
  }
  return { tests, bySubject, byDir, stems, byPath: new Map(tests.map((t) => [t.path, t])) };
}

/** Relates a test for one reason: the first time makes it a candidate, later reasons add to it (up to 3 evidence items). */
function relate(r: Relating, file: FileRow, reason: TestReason, detail: string, ev?: EvidenceDraft): void {
  let c = r.candidates.get(file.path);
  if (!c) r.candidates.set(file.path, (c = { file, reasons: new Set(), details: [], evidence: [] }));
  c.reasons.add(reason);
  if (!c.details.includes(detail)) c.details.push(detail);
  if (ev && c.evidence.length < 3) c.evidence.push(ev);
}

/** Symbols asked for by name: their definitions join the changed files, their names are followed directly. */
async function followSymbolInputs(r: Relating, symbolInputs: string[], changed: string[]): Promise<void> {
  const { ctx } = r;
  for (const raw of symbolInputs) {
    const { name } = parseSymbol(raw);
    r.followed.push({ name, from: raw });
    const defs = await ctx.store.findSymbols(ctx.index.id, { name, limit: 20 });
    for (const d of defs) if (!isTestPath(d.path) && !changed.includes(d.path)) changed.push(d.path);
    if (defs.length === 0) r.warnings.push({ code: "symbol_not_found", message: `no definition of ${raw} in the index; its name is still followed through references` });
  }
}

/**
 * Relates tests to one changed path by name, package, folder and mirrored test folder, and queues its symbols to
 * be followed; false when no test was related to it.
 */
async function relateChangedPath(r: Relating, path: string): Promise<boolean> {
  const { ctx, index } = r;
  const before = r.candidates.size;
  const file = await ctx.store.getFile(ctx.index.id, path);
  if (!file) {
    r.warnings.push({ code: "path_not_indexed", message: `${path} is not in the index (new or excluded file): related by name and folder only` });
  } else r.labels.set(file.path, labelInputOf(file));
  if (index.byPath.has(path)) relate(r, index.byPath.get(path)!, "changed-test", `${path} is itself a test`);
  const stem = stemOf(path);
  for (const t of index.bySubject.get(key(stem)) ?? []) if (t.path !== path) relate(r, t, "name-convention", `named after ${baseName(path)}`);
  const dir = dirName(path);
  const samePackage = PACKAGE_IS_FOLDER.has(file?.language ?? "");
  for (const t of index.byDir.get(dir) ?? []) if (t.path !== path) relate(r, t, samePackage ? "same-package" : "same-folder", `in the same ${samePackage ? "package" : "folder"} as ${path}`);
  for (const m of mirroredDirs(dir)) {
    for (const t of index.byDir.get(m) ?? []) relate(r, t, PACKAGE_IS_FOLDER.has(t.language ?? "") ? "same-package" : "mirrored-folder", `in ${m}, the test folder mirroring ${dir || "the root"}`);
  }
  if (file && file.symbolStatus !== null) {
    const defs = await ctx.store.findSymbols(ctx.index.id, { path, limit: 2000 });
    for (const s of followable(defs)) r.followed.push({ name: s.name, from: `${s.kind} ${s.qualifiedName} in ${path}` });
  }
  return r.candidates.size !== before;
}

/** Tests that reference the changed code by name. */
async function addReferencingTests(r: Relating): Promise<void> {
  const { ctx } = r;
  const seenNames = new Set<string>();
  for (const f of r.followed) {
    if (seenNames.has(f.name)) continue;
    seenNames.add(f.name);
    const refs = await ctx.store.findReferences(ctx.index.id, { name: f.name, limit: MAX_REFERENCES_PER_SYMBOL });
    if (refs.length >= MAX_REFERENCES_PER_SYMBOL) r.warnings.push({ code: "references_truncated", message: `${f.name} has more than ${MAX_REFERENCES_PER_SYMBOL} references; only the first were followed` });
    for (const ref of refs) {
      const t = r.index.byPath.get(ref.path);
      if (!t) continue;
      relate(r, t, "references-changed-symbol", `references ${f.name} (${f.from}) at line ${ref.line}`, {
        path: ref.path,
        startLine: ref.line,
        endLine: ref.line,
        contentHash: ref.contentHash,
        retrieval: "syntactic",
      });
    }
  }
}

/** Nothing relates a changed file to a test: the module's own tests, low confidence. */
function addSameModuleTests(r: Relating, k: Knowledge, unrelated: string[]): void {
  for (const path of unrelated) {
    const m = k.moduleOf(path);
    if (!m || [...r.candidates.values()].some((c) => k.moduleOf(c.file.path) === m)) continue;
    const inModule = r.index.tests.filter((t) => k.moduleOf(t.path) === m).slice(0, MAX_SAME_MODULE);
    for (const t of inModule) relate(r, t, "same-module", `a test of module ${m.name}, which contains ${path}`);
  }
}

/** The kept tests as results, in rank order, with their evidence (the whole file when no reference was seen). */
async function describeTests(r: Relating, k: Knowledge, kept: { c: Candidate; score: number }[]): Promise<{ items: RelatedTest[]; evidence: EvidenceDraft[] }> {
  const ambiguous = new Set([...r.index.stems].filter(([, n]) => n > 1).map(([s]) => s));
  const items: RelatedTest[] = [];
  const evidence: EvidenceDraft[] = [];
  for (const { c, score } of kept) {
    r.labels.set(c.file.path, labelInputOf(c.file));
    const module = k.moduleOf(c.file.path);
    items.push({
      path: c.file.path,
      confidence: confidenceOf(score),
      score: Math.round(score * 100) / 100,
      reasons: [...c.reasons].sort((a, b) => WEIGHT[b] - WEIGHT[a] || a.localeCompare(b)),
      details: c.details.slice(0, 8),
      module: module?.name ?? null,
      testCommandHint: module ? await commandHint(r.ctx, k, module, c.file, ambiguous.has(key(stemOf(c.file.path)))) : null,
      contentHash: c.file.contentHash,
    });
    evidence.push(
      ...(c.evidence.length > 0
        ? c.evidence
        : [{ path: c.file.path, startLine: 1, endLine: Math.max(1, c.file.lineCount ?? 1), contentHash: c.file.contentHash, retrieval: "heuristic" as const }]),
    );
  }
  return { items, evidence };
}

/**
 * High needs the naming convention plus another signal (or the test itself changed); a test found only by what it
 * references, or by folder, is medium at best.
 */
function confidenceOf(score: number): RelatedTest["confidence"] {
  return score >= 6 ? "high" : score >= 3 ? "medium" : "low";
}

async function commandHint(ctx: QueryContext, k: Knowledge, module: RepoModule, test: FileRow, ambiguousName: boolean): Promise<string | null> {
  const symbols = test.symbolStatus === null ? [] : await ctx.store.findSymbols(ctx.index.id, { path: test.path, limit: 500 });
  const testNames = symbols.filter((s) => s.kind === "function" && /^Test[A-Z_]/.test(s.name)).map((s) => s.name);
  return testCommandFor(
    module,
    {
      path: test.path,
      className: ambiguousName ? qualifiedClassOf(test, symbols) ?? stemOf(test.path) : stemOf(test.path),
      qualifiedClass: qualifiedClassOf(test, symbols),
      ...(testNames.length > 0 ? { testNames } : {}),
    },
    k.graph,
  );
}
