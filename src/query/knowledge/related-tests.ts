import { testCommandFor } from "../../indexer/knowledge/manifests/test-command.js";
import type { RepoModule } from "../../core/knowledge.js";
import { isTestPath, type LabelInput } from "../../policy/labels.js";
import type { FileRow, SymbolRow } from "../../store/store.js";
import { labelInputOf, type QueryContext, type QueryResult } from "../context.js";
import { QueryError } from "../../core/errors.js";
import { matchesQualifier, parseSymbol } from "../symbols.js";
import { knowledgeOf, requirePath, type Knowledge } from "./load.js";
import type { EvidenceDraft, Warning } from "../../core/evidence.js";
import { familyOf, isCodeLanguage, isSnapshotPath, roleNeedsContent, snapshotOwnedBy, testRole, type TestRole } from "./related/roles.js";
import { baseName, dirName, key, mirroredDirs, moduleNameOf, namedAfterFolderAndModule, nameNearness, stemOf, testSubject } from "./related/names.js";
import { inlineTestsOf } from "./related/inline.js";
import { MAX_NAME_DEFINITIONS } from "../../store/file-edges.js";
import { importLink, importTargets, type ChangedUnit, type ImportLink } from "./related/imports.js";
import { literalHits, literalSources } from "./related/literals.js";
import { shorten } from "../text.js";

export type TestReason =
  | "changed-test"
  | "name-convention"
  | "same-package"
  | "same-folder"
  | "mirrored-folder"
  | "references-changed-symbol"
  | "imports-changed-symbol"
  | "imports-changed-file"
  | "imports-changed-package"
  | "similar-name"
  | "named-after-symbol"
  | "inline-tests"
  | "doc-tests"
  | "holds-changed-literal"
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
  /** Recorded outputs this test compares against (jest `__snapshots__`, insta `snapshots/`, Go golden files). */
  snapshots: string[];
  contentHash: string;
}

/** A test helper, fixture or snapshot related to the change: maybe to update, never a test to run. */
export interface SupportFile {
  path: string;
  role: Exclude<TestRole, "test">;
  details: string[];
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
/** A symbol asked for whose definitions span more files than this adds none of them (the name is ambiguous). */
const MAX_ADDED_DEFINITIONS = 3;
/** A test using a symbol asked for, or holding one of its literals (not only the rest of a changed file), gains this much. */
const ASKED_SYMBOL_BONUS = 2;
/** Same-module fallback: listed only for a changed file nothing else relates a test to. */
const MAX_SAME_MODULE = 5;

const WEIGHT: Record<TestReason, number> = {
  "changed-test": 10,
  "name-convention": 4,
  // The changed file holds its own tests: running them is the first proof of the change.
  "inline-tests": 6,
  "doc-tests": 3,
  "same-package": 2,
  "same-folder": 2,
  "mirrored-folder": 2,
  // Near the module's name (abbreviated, or sharing its leading words): as telling as living beside it.
  "similar-name": 2,
  // Named after a symbol asked for (`req.hostname.js`, `test_hostname.py` for `hostname`): it tests that member,
  // though the name may belong to another owner's member (a `quote` test for `QuoteService#quote`).
  "named-after-symbol": 3,
  // Calls or uses a changed symbol (at full weight only when few tests do: see SPECIFIC_TESTS).
  "references-changed-symbol": 3,
  // Holds, as written, a message or option a changed file spells out (few tests do): it checks that output. Test
  // data a suite reads (`tests/jq.test`, `.stderr` expectations) is found this way.
  "holds-changed-literal": 3,
  // Only imports a changed symbol: it may never exercise the changed code.
  "imports-changed-symbol": 1,
  // Its imports name the changed file (from anywhere: another folder, package or module), or only the package
  // holding it: below the tests beside or named after it (at full weight only when few tests do: SPECIFIC_TESTS).
  "imports-changed-file": 2,
  "imports-changed-package": 1,
  "same-module": 0.5,
};
const IMPORT_REASON: Record<ImportLink, TestReason> = { file: "imports-changed-file", package: "imports-changed-package" };
/** Test files whose imports are read for one call; past it the rest are not, and a warning says so. */
const MAX_IMPORT_SCAN = 5000;
/**
 * A changed symbol used by at most this many tests tells which tests exercise it; one that every test uses (the
 * library's entry class) tells nothing, and its weight falls as SPECIFIC_TESTS / (tests using it).
 */
const SPECIFIC_TESTS = 5;
/** Extra changed symbols a test uses (or extra literals it holds) add this much each, up to MAX_EXTRA_SYMBOLS. */
const EXTRA_SYMBOL_BONUS = 0.5;
const MAX_EXTRA_SYMBOLS = 2;
/** Test functions that use the changed code and are few enough to name in the command instead of the whole file. */
const MAX_NAMED_TESTS = 5;
/** Support files (helpers, fixtures, snapshots) listed apart in stats. */
const MAX_SUPPORT = 20;
/** Languages whose folder is the package: a test beside the code is in the same package. */
const PACKAGE_IS_FOLDER = new Set(["java", "kotlin", "scala", "groovy", "go"]);

interface Candidate {
  file: FileRow;
  reasons: Set<TestReason>;
  details: string[];
  evidence: EvidenceDraft[];
  /** The changed paths this test was related to. */
  sources: Set<string>;
  /** Changed symbols it uses: the kinds of use, and the test functions (qualified) that use them. */
  uses: Map<string, { kinds: Set<string>; callers: Set<string> }>;
  /** Changed paths its imports name: the file itself, or only its package. */
  imports: Map<string, ImportLink>;
  /** Literals of the changed code it holds; whether one came from a symbol asked for. */
  literals: number;
  askedLiteral?: boolean;
  /** Set for tests inside a changed file: which kind, and the file's module path. */
  inline?: { kind: "inline" | "doc"; modulePath: string | null };
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
  /** Keyed by the module a test is named after (a folder-named test, `cors/index.test.js`, by its folder). */
  bySubject: Map<string, FileRow[]>;
  byDir: Map<string, FileRow[]>;
  /** Test files per stem: test classes sharing a simple name (a.FooTest, b.FooTest) are run by qualified name. */
  stems: Map<string, number>;
  byPath: Map<string, FileRow>;
  snapshots: FileRow[];
}

/** A name whose references are followed into tests, and what it stands for (for the details). */
interface Followed {
  name: string;
  from: string;
  /** The changed path defining it; null for a symbol asked for by name only. */
  path: string | null;
}

/** What one findRelatedTests call has gathered: the tests related so far, the names to follow, labels and warnings. */
interface Relating {
  ctx: QueryContext;
  index: TestIndex;
  candidates: Map<string, Candidate>;
  followed: Followed[];
  labels: Map<string, LabelInput>;
  warnings: Warning[];
  /** Code families of the changed files: a test in another language (a fixture) is not their test. */
  families: Set<string>;
  roles: Map<string, TestRole>;
  /** Names of the symbols asked for: the tests using them come before those using the rest of a changed file. */
  asked: Set<string>;
  /** Per changed path, the line ranges of the symbols asked for there: their literals are the ones looked up. */
  askedRanges: Map<string, [number, number][]>;
}

/**
 * Tests most likely to prove (or need) a change to the given paths or symbols, ranked: tests inside the changed
 * files, naming conventions per ecosystem (folder-named modules included), tests that call the changed symbols
 * (above those that only import them, and those using a symbol few tests use above those using one every test
 * does), same package or folder, and the module's tests as a last resort. Helpers, fixtures and snapshots are never
 * proposed to run: snapshots go with their test, the rest is listed apart. Each test with its reasons, a confidence
 * and a command that runs just that test with the module's real build tool.
 */
export async function findRelatedTests(ctx: QueryContext, input: RelatedTestsInput): Promise<QueryResult<RelatedTest>> {
  const changed = [...new Set((input.changedPaths ?? []).map(requirePath))];
  const symbolInputs = input.symbols ?? [];
  if (changed.length === 0 && symbolInputs.length === 0) {
    throw new QueryError("invalid_input", "give changedPaths, symbols or both");
  }
  const k = await knowledgeOf(ctx);
  const maxResults = Math.min(input.maxResults ?? DEFAULT_RESULTS, ctx.policy.maxSearchResults);
  const r: Relating = { ctx, index: indexTests(await k.testFiles(), await k.snapshotFiles()), candidates: new Map(), followed: [], labels: new Map(), warnings: [], families: new Set(), roles: new Map(), asked: new Set(), askedRanges: new Map() };

  const added = await followSymbolInputs(r, symbolInputs, changed);
  const paths = [...changed, ...added.map((a) => a.path)];
  for (const path of paths) await relateChangedPath(r, path);
  await addReferencingTests(r);
  await addImportingTests(r, k, paths);
  await addLiteralTests(r, paths);
  const support = await keepRunnable(r);
  const related = new Set([...r.candidates.values()].flatMap((c) => [...c.sources]));
  await addSameModuleTests(r, k, paths.filter((p) => !related.has(p)));

  const ranked = rank(r);
  const { items, evidence } = await describeTests(r, k, ranked.slice(0, maxResults));
  const modules = new Map<string, RepoModule>();
  for (const p of paths) {
    const m = k.moduleOf(p);
    if (m) modules.set(m.path, m);
  }
  return {
    items,
    stats: {
      truncated: ranked.length > maxResults,
      candidates: ranked.length,
      changedPaths: changed,
      addedPaths: added,
      supportFiles: support.slice(0, MAX_SUPPORT),
      moduleTestCommands: [...modules.values()].map((m) => ({ module: m.name, path: m.path, command: m.testCommand, source: m.commandSource })),
    },
    evidence,
    labels: r.labels,
    warnings: r.warnings,
  };
}

/** Indexes the test files by subject, folder, stem and path; snapshots apart. */
function indexTests(files: FileRow[], snapshots: FileRow[]): TestIndex {
  const bySubject = new Map<string, FileRow[]>();
  const byDir = new Map<string, FileRow[]>();
  const stems = new Map<string, number>();
  const tests = files.filter((t) => !isSnapshotPath(t.path));
  for (const t of tests) {
    const s = key(moduleNameOf(testSubject(t.path), t.path));
    if (s) (bySubject.get(s) ?? bySubject.set(s, []).get(s)!).push(t);
    const d = dirName(t.path);
    (byDir.get(d) ?? byDir.set(d, []).get(d)!).push(t);
    const stem = key(stemOf(t.path));
    stems.set(stem, (stems.get(stem) ?? 0) + 1);
  }
  return { tests, bySubject, byDir, stems, byPath: new Map(tests.map((t) => [t.path, t])), snapshots };
}

/** Relates a test for one reason: the first time makes it a candidate, later reasons add to it (up to 3 evidence items). */
function relate(r: Relating, file: FileRow, reason: TestReason, detail: string, source: string | null, ev?: EvidenceDraft): Candidate {
  let c = r.candidates.get(file.path);
  if (!c) r.candidates.set(file.path, (c = { file, reasons: new Set(), details: [], evidence: [], sources: new Set(), uses: new Map(), imports: new Map(), literals: 0 }));
  c.reasons.add(reason);
  if (source !== null) c.sources.add(source);
  if (!c.details.includes(detail)) c.details.push(detail);
  if (ev && c.evidence.length < 3) c.evidence.push(ev);
  return c;
}

/**
 * Symbols asked for by name. A definition in a changed path is the one meant (`write` with `Streams.java` changed is
 * `Streams`'s, not every adapter's); otherwise the definitions matching the qualifier are, and their files are added
 * with why, unless so many files define the name that it says nothing (then a warning asks for a qualified name).
 * The name is followed from where it resolved, and tests named after it are related.
 */
async function followSymbolInputs(r: Relating, symbolInputs: string[], changed: string[]): Promise<{ path: string; reason: string }[]> {
  const { ctx } = r;
  const added: { path: string; reason: string }[] = [];
  for (const raw of symbolInputs) {
    const { name, qualified } = parseSymbol(raw);
    r.asked.add(name);
    if (name.length >= MIN_SYMBOL_NAME && !GENERIC_NAMES.has(name)) {
      for (const t of r.index.tests) {
        const subject = moduleNameOf(testSubject(t.path), t.path);
        const member = subject.slice(subject.lastIndexOf(".") + 1);
        if (key(subject) === key(name) || key(member) === key(name)) relate(r, t, "named-after-symbol", `named after ${raw}, asked for`, null);
      }
    }
    const defs = (await ctx.store.findSymbols(ctx.index.id, { name, limit: 50 })).filter((d) => matchesQualifier(d, qualified) && !isTestPath(d.path));
    const inChanged = defs.filter((d) => changed.includes(d.path));
    for (const d of inChanged) (r.askedRanges.get(d.path) ?? r.askedRanges.set(d.path, []).get(d.path)!).push([d.startLine, d.endLine]);
    const files = [...new Set((inChanged.length > 0 ? inChanged : defs).map((d) => d.path))];
    r.followed.push({ name, from: raw, path: inChanged.length > 0 ? inChanged[0]!.path : files.length === 1 ? files[0]! : null });
    if (defs.length === 0) {
      r.warnings.push({ code: "symbol_not_found", message: `no definition of ${raw} in the index; its name is still followed through references` });
      continue;
    }
    if (inChanged.length > 0) continue;
    if (files.length > MAX_ADDED_DEFINITIONS) {
      r.warnings.push({ code: "symbol_ambiguous", message: `${files.length} files define ${raw}; none was added: qualify it (Class#member) or give its path` });
      continue;
    }
    for (const d of defs) {
      if (added.some((a) => a.path === d.path)) continue;
      added.push({ path: d.path, reason: `defines ${d.kind} ${d.qualifiedName}, asked for as ${raw}` });
    }
  }
  return added;
}

/**
 * Relates tests to one changed path: its own inline and doc tests, by name (exact, then near), package, folder and
 * mirrored test folder; and queues its symbols to be followed.
 */
async function relateChangedPath(r: Relating, path: string): Promise<void> {
  const { ctx, index } = r;
  const file = await ctx.store.getFile(ctx.index.id, path);
  if (!file) {
    r.warnings.push({ code: "path_not_indexed", message: `${path} is not in the index (new or excluded file): related by name and folder only` });
  } else r.labels.set(file.path, labelInputOf(file));
  const language = file?.language ?? null;
  if (isCodeLanguage(language)) r.families.add(familyOf(language)!);
  if (index.byPath.has(path)) relate(r, index.byPath.get(path)!, "changed-test", `${path} is itself a test`, path);
  if (file && isCodeLanguage(language)) {
    for (const t of await inlineTestsOf(ctx, file)) {
      const c = relate(r, t.file, t.kind === "doc" ? "doc-tests" : "inline-tests", t.detail, path);
      c.inline ??= { kind: t.kind, modulePath: t.modulePath };
    }
  }
  const name = moduleNameOf(stemOf(path), path);
  if (name !== "") {
    for (const t of index.bySubject.get(key(name)) ?? []) if (t.path !== path) relate(r, t, "name-convention", `named after ${baseName(path)}`, path);
    for (const t of index.tests) {
      if (t.path === path) continue;
      const subject = moduleNameOf(testSubject(t.path), t.path);
      const after = namedAfterFolderAndModule(subject, path, name);
      if (after !== null) {
        relate(r, t, "name-convention", `named ${subject}, after ${after}`, path);
        continue;
      }
      const near = nameNearness(subject, name);
      if (near) relate(r, t, "similar-name", near === "abbreviation" ? `named ${testSubject(t.path)}, short for ${name}` : `named ${testSubject(t.path)}, sharing the leading words of ${name}`, path);
    }
  }
  const dir = dirName(path);
  const samePackage = PACKAGE_IS_FOLDER.has(language ?? "");
  for (const t of index.byDir.get(dir) ?? []) if (t.path !== path) relate(r, t, samePackage ? "same-package" : "same-folder", `in the same ${samePackage ? "package" : "folder"} as ${path}`, path);
  for (const m of mirroredDirs(dir)) {
    for (const t of index.byDir.get(m) ?? []) relate(r, t, PACKAGE_IS_FOLDER.has(t.language ?? "") ? "same-package" : "mirrored-folder", `in ${m}, the test folder mirroring ${dir || "the root"}`, path);
  }
  if (file && file.symbolStatus !== null) {
    const defs = await ctx.store.findSymbols(ctx.index.id, { path, limit: 2000 });
    for (const s of followable(defs)) r.followed.push({ name: s.name, from: `${s.kind} ${s.qualifiedName} in ${path}`, path });
  }
}

/** Tests that reference the changed code by name: which symbols, how (a call or only an import) and from which test functions. */
async function addReferencingTests(r: Relating): Promise<void> {
  const { ctx } = r;
  const seenNames = new Set<string>();
  for (const f of r.followed) {
    if (seenNames.has(f.name)) continue;
    seenNames.add(f.name);
    // A member name many files define (`create` of every factory, `write` of every adapter) does not say which
    // one a test calls: as for the reference graph, such a name relates nothing. A name asked for is followed.
    if (f.path !== null && (await definingFiles(ctx, f.name)) > MAX_NAME_DEFINITIONS) continue;
    const refs = await ctx.store.findReferences(ctx.index.id, { name: f.name, limit: MAX_REFERENCES_PER_SYMBOL });
    if (refs.length >= MAX_REFERENCES_PER_SYMBOL) r.warnings.push({ code: "references_truncated", message: `${f.name} has more than ${MAX_REFERENCES_PER_SYMBOL} references; only the first were followed` });
    for (const ref of refs) {
      const t = r.index.byPath.get(ref.path);
      if (!t) continue;
      const imported = ref.kind === "import";
      const c = relate(r, t, imported ? "imports-changed-symbol" : "references-changed-symbol", `${imported ? "imports" : "references"} ${f.name} (${f.from}) at line ${ref.line}`, f.path, {
        path: ref.path,
        startLine: ref.line,
        endLine: ref.line,
        contentHash: ref.contentHash,
        retrieval: "syntactic",
      });
      const use = c.uses.get(f.name) ?? c.uses.set(f.name, { kinds: new Set(), callers: new Set() }).get(f.name)!;
      use.kinds.add(ref.kind);
      if (!imported && ref.enclosing) use.callers.add(ref.enclosing);
    }
  }
}

/**
 * Tests whose imports name a changed file, or only the package holding it, wherever they live (another folder,
 * package or module of the repository): one step of the import graph, in the changed file's language.
 */
async function addImportingTests(r: Relating, k: Knowledge, paths: string[]): Promise<void> {
  const { ctx } = r;
  const units: ChangedUnit[] = [];
  for (const path of paths) {
    const file = await ctx.store.getFile(ctx.index.id, path);
    if (file && isCodeLanguage(file.language)) units.push({ path, family: familyOf(file.language), module: k.moduleOf(path) });
  }
  const families = new Set(units.map((u) => u.family));
  const tests = r.index.tests.filter((t) => families.has(familyOf(t.language)));
  if (tests.length > MAX_IMPORT_SCAN) r.warnings.push({ code: "imports_truncated", message: `${tests.length} test files; the imports of the first ${MAX_IMPORT_SCAN} were read` });
  for (const t of tests.slice(0, MAX_IMPORT_SCAN)) {
    const text = await ctx.store.getContent(ctx.index.id, t.path);
    const targets = text === null ? [] : importTargets(t.path, t.language, text);
    if (targets.length === 0) continue;
    for (const u of units) {
      if (u.path === t.path || u.family !== familyOf(t.language)) continue;
      const link = importLink(targets, u);
      if (!link) continue;
      // Only the package imported: as weak as being in the module, so the module's tests may still be added.
      const c = relate(r, t, IMPORT_REASON[link], link === "file" ? `imports ${u.path}` : `imports the package holding ${u.path}`, link === "file" ? u.path : null);
      if (c.imports.get(u.path) !== "file") c.imports.set(u.path, link);
    }
  }
}

/** Tests and test data holding, as written, literals of the changed code (of the symbols asked for first, where given). */
async function addLiteralTests(r: Relating, paths: string[]): Promise<void> {
  const { ctx } = r;
  for (const h of await literalHits(ctx, await literalSources(ctx, paths, r.askedRanges))) {
    const file = r.index.byPath.get(h.path) ?? (await ctx.store.getFile(ctx.index.id, h.path));
    if (!file || isSnapshotPath(file.path)) continue;
    const ev = { path: h.path, startLine: h.line, endLine: h.line, contentHash: file.contentHash, retrieval: "lexical" as const };
    const c = relate(r, file, "holds-changed-literal", `holds "${shorten(h.literal, 50)}" from ${h.source} at line ${h.line}`, h.source, ev);
    c.literals += 1;
    if (h.focused) c.askedLiteral = true;
  }
}

/** Distinct files defining this exact name, counted up to MAX_NAME_DEFINITIONS + 1. */
async function definingFiles(ctx: QueryContext, name: string): Promise<number> {
  const defs = await ctx.store.findSymbols(ctx.index.id, { name, limit: (MAX_NAME_DEFINITIONS + 1) * 4 });
  return new Set(defs.map((d) => d.path)).size;
}

/** The role of a file under the test conventions, reading its text only when its name does not settle it. */
async function roleOf(r: Relating, file: FileRow): Promise<TestRole> {
  let role = r.roles.get(file.path);
  if (role === undefined) {
    const content = roleNeedsContent(file.path, file.language) ? await r.ctx.store.getContent(r.ctx.index.id, file.path) : null;
    role = testRole(file.path, file.language, content);
    r.roles.set(file.path, role);
  }
  return role;
}

/**
 * Keeps the candidates a runner runs, in a language of the changed code (a Go file among a Rust crate's tests is a
 * fixture); the others are returned as support files with what related them. Inline tests are the changed files.
 */
async function keepRunnable(r: Relating): Promise<SupportFile[]> {
  const support: SupportFile[] = [];
  for (const [path, c] of r.candidates) {
    if (c.inline || c.reasons.has("changed-test")) continue;
    // Test data holding what the changed code says is the suite's case: the file to read and extend.
    if (c.reasons.has("holds-changed-literal") && !isCodeLanguage(c.file.language)) continue;
    const role = await roleOf(r, c.file);
    // A name alone links languages only by coincidence (a PHP sample naming a Rust function): another language's
    // file is a fixture of these tests, even when it mentions a changed name.
    // A shell test script is the exception: it drives the built program, whatever language that is written in.
    const foreign = r.families.size > 0 && !r.families.has(familyOf(c.file.language) ?? "") && c.file.language !== "shell";
    if (role === "test" && !foreign) continue;
    r.candidates.delete(path);
    support.push({ path, role: role === "test" ? "fixture" : role, details: c.details.slice(0, 3) });
  }
  return support.sort((a, b) => a.path.localeCompare(b.path));
}

/** Nothing relates a changed file to a test: the module's own runnable tests, low confidence. */
async function addSameModuleTests(r: Relating, k: Knowledge, unrelated: string[]): Promise<void> {
  for (const path of unrelated) {
    const m = k.moduleOf(path);
    if (!m || [...r.candidates.values()].some((c) => k.moduleOf(c.file.path) === m)) continue;
    const family = familyOf((await r.ctx.store.getFile(r.ctx.index.id, path))?.language ?? null);
    let kept = 0;
    for (const t of r.index.tests) {
      if (kept >= MAX_SAME_MODULE) break;
      if (k.moduleOf(t.path) !== m || (r.families.size > 0 && familyOf(t.language) !== family && !r.families.has(familyOf(t.language) ?? ""))) continue;
      if ((await roleOf(r, t)) !== "test") continue;
      relate(r, t, "same-module", `a test of module ${m.name}, which contains ${path}`, path);
      kept += 1;
    }
  }
}

/** Reasons whose weight depends on how many tests share them (see SPECIFIC_TESTS), scored apart from the others. */
const SHARED_REASONS = new Set<TestReason>(["references-changed-symbol", "imports-changed-file", "imports-changed-package"]);

/**
 * Scores each candidate: its reasons' weights, a use of changed code weighted by how specific the symbols it uses
 * are, a bonus for each further changed symbol it uses, an import of a changed file weighted by how few tests
 * import it. Ties go to the test using more changed symbols, then path.
 */
function rank(r: Relating): { c: Candidate; score: number }[] {
  const usedBy = new Map<string, number>();
  const importedBy = new Map<string, number>();
  for (const c of r.candidates.values()) {
    for (const name of c.uses.keys()) usedBy.set(name, (usedBy.get(name) ?? 0) + 1);
    for (const [path, link] of c.imports) importedBy.set(`${link} ${path}`, (importedBy.get(`${link} ${path}`) ?? 0) + 1);
  }
  const scored = [...r.candidates.values()].map((c) => {
    const called = [...c.uses].filter(([, u]) => [...u.kinds].some((kd) => kd !== "import"));
    if (called.length > 0) c.reasons.delete("imports-changed-symbol");
    let score = 0;
    for (const x of c.reasons) if (!SHARED_REASONS.has(x)) score += WEIGHT[x];
    const imports = [...c.imports].map(([path, link]) => WEIGHT[IMPORT_REASON[link]] * Math.min(1, SPECIFIC_TESTS / importedBy.get(`${link} ${path}`)!));
    if (imports.length > 0) score += Math.max(...imports);
    if (called.length > 0) {
      const specificity = Math.max(...called.map(([name]) => Math.min(1, SPECIFIC_TESTS / usedBy.get(name)!)));
      score += WEIGHT["references-changed-symbol"] * specificity + Math.min(MAX_EXTRA_SYMBOLS, called.length - 1) * EXTRA_SYMBOL_BONUS;
      if (called.some(([name]) => r.asked.has(name))) score += ASKED_SYMBOL_BONUS;
    }
    score += Math.min(MAX_EXTRA_SYMBOLS, Math.max(0, c.literals - 1)) * EXTRA_SYMBOL_BONUS + (c.askedLiteral ? ASKED_SYMBOL_BONUS : 0);
    return { c, score, used: called.length };
  });
  return scored.sort((a, b) => b.score - a.score || b.used - a.used || a.c.file.path.localeCompare(b.c.file.path)).map(({ c, score }) => ({ c, score }));
}

/** The kept tests as results, in rank order, with their snapshots and evidence (the whole file when no reference was seen). */
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
      testCommandHint: module ? await commandHint(r.ctx, k, module, c, ambiguous.has(key(stemOf(c.file.path)))) : null,
      snapshots: c.inline ? [] : r.index.snapshots.filter((s) => snapshotOwnedBy(s.path, c.file.path)).map((s) => s.path),
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
 * High needs the naming convention plus another signal (or the test itself changed, or tests inside the changed
 * file); a test found only by what it references, or by folder, is medium at best.
 */
function confidenceOf(score: number): RelatedTest["confidence"] {
  return score >= 6 ? "high" : score >= 3 ? "medium" : "low";
}

/**
 * The test functions using the changed code, as the runner names them (`Class::test_x` for pytest, `TestX` for Go,
 * a method for JUnit), when few enough to list. A test named after the changed file tests all of it and runs whole
 * (its tests may reach the code through a field); JavaScript tests are named by title, which references do not give.
 */
function namedTests(c: Candidate): string[] {
  const family = familyOf(c.file.language);
  if (c.reasons.has("name-convention") || c.reasons.has("changed-test")) return [];
  if (family !== "python" && family !== "go" && family !== "jvm") return [];
  const callers = new Set([...c.uses.values()].flatMap((u) => [...u.callers]));
  const names = new Set<string>();
  for (const q of callers) {
    const [owner, member] = q.includes("#") ? [q.slice(0, q.indexOf("#")), q.slice(q.indexOf("#") + 1)] : [null, q];
    const fn = member.slice(member.lastIndexOf(".") + 1);
    const cls = owner === null ? null : owner.slice(owner.lastIndexOf(".") + 1);
    const isTest = family === "go" ? /^(Test|Benchmark|Example|Fuzz)/.test(fn) : family === "python" ? fn.startsWith("test") : cls !== null;
    if (!isTest) return [];
    names.add(family === "python" && cls ? `${cls}::${fn}` : fn);
  }
  return names.size <= MAX_NAMED_TESTS ? [...names].sort() : [];
}

async function commandHint(ctx: QueryContext, k: Knowledge, module: RepoModule, c: Candidate, ambiguousName: boolean): Promise<string | null> {
  const test = c.file;
  if (c.inline) return testCommandFor(module, { path: test.path, kind: c.inline.kind, modulePath: c.inline.modulePath }, k.graph);
  const symbols = test.symbolStatus === null ? [] : await ctx.store.findSymbols(ctx.index.id, { path: test.path, limit: 500 });
  const using = namedTests(c);
  const testNames = using.length > 0 ? using : symbols.filter((s) => s.kind === "function" && /^Test[A-Z_]/.test(s.name)).map((s) => s.name);
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
