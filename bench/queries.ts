/**
 * Fixed query lists, one per corpus: what a coding agent typically asks of a repository of that kind. Common
 * identifiers, rare strings, strings with no hits, regular expressions and path-restricted searches. Keep the
 * lists stable: figures are only comparable between runs of the same list.
 */
import type { CorpusName } from "./corpus.js";

export interface BenchQuery {
  /** Short label for tables. */
  label: string;
  query: string;
  regex?: boolean;
  paths?: string[];
}

const LINUX_QUERIES: readonly BenchQuery[] = [
  { label: "common identifier", query: "spin_lock_irqsave" },
  { label: "common identifier", query: "copy_from_user" },
  { label: "macro", query: "EXPORT_SYMBOL_GPL" },
  { label: "type", query: "struct sk_buff" },
  { label: "common identifier", query: "rcu_read_lock" },
  { label: "errno", query: "-EINVAL" },
  { label: "macro call", query: 'MODULE_LICENSE("GPL")' },
  { label: "common identifier", query: "container_of" },
  { label: "identifier", query: "devm_kzalloc" },
  { label: "identifier", query: "list_for_each_entry_safe" },
  { label: "call with arg", query: "mutex_lock(&" },
  { label: "identifier", query: "kfree_rcu" },
  { label: "rare identifier", query: "ieee80211_radiotap_iterator_init" },
  { label: "rare identifier", query: "tcp_v4_syn_recv_sock" },
  { label: "rare phrase", query: "Hans Reiser" },
  { label: "no hits", query: "repoctx_no_such_symbol_zq" },
  { label: "no hits", query: "the quick brown fox jumps" },
  { label: "regex", query: "kmalloc\\(.*GFP_ATOMIC", regex: true },
  { label: "regex", query: "static (const )?struct file_operations \\w+ =", regex: true },
  { label: "regex", query: "^#define\\s+[A-Z0-9_]+_MASK\\b", regex: true },
  { label: "regex", query: "for_each_\\w+_cpu\\(", regex: true },
  { label: "path glob", query: "netif_rx", paths: ["drivers/net/**"] },
  { label: "path glob", query: "ioctl", paths: ["fs/**/*.c"] },
  { label: "path glob", query: "struct page", paths: ["mm/**"] },
  { label: "path glob", query: "dma_map_single", paths: ["drivers/net/ethernet/intel/**"] },
];

const NODE_MODULES_QUERIES: readonly BenchQuery[] = [
  { label: "common identifier", query: "module.exports" },
  { label: "common identifier", query: "Object.defineProperty" },
  { label: "common identifier", query: "process.env" },
  { label: "common identifier", query: "JSON.parse" },
  { label: "common identifier", query: "Promise.resolve" },
  { label: "common identifier", query: "hasOwnProperty" },
  { label: "error", query: "new TypeError(" },
  { label: "identifier", query: "Symbol.iterator" },
  { label: "identifier", query: "readFileSync" },
  { label: "identifier", query: "addEventListener" },
  { label: "type", query: "export declare function" },
  { label: "identifier", query: "createServer" },
  { label: "rare identifier", query: "sqlite3_prepare_v2" },
  { label: "rare identifier", query: "StdioServerTransport" },
  { label: "rare phrase", query: "levenshtein" },
  { label: "no hits", query: "repoctx_no_such_symbol_zq" },
  { label: "no hits", query: "the quick brown fox jumps over" },
  { label: "regex", query: "require\\(['\"]fs['\"]\\)", regex: true },
  { label: "regex", query: "function \\w+Async\\(", regex: true },
  { label: "regex", query: "^export (async )?function \\w+", regex: true },
  { label: "regex", query: "new Promise\\(\\(resolve, reject\\)", regex: true },
  { label: "path glob", query: "createSourceFile", paths: ["typescript/**"] },
  { label: "path glob", query: "ZodObject", paths: ["zod/**/*.d.ts"] },
  { label: "path glob", query: "Client", paths: ["@modelcontextprotocol/sdk/dist/esm/**"] },
  { label: "path glob", query: "transform", paths: ["esbuild/**"] },
];

/** A `find_symbol` call: a name (or qualified name) and what is asked of it. */
export interface SymbolLookup {
  /** Short label for tables. */
  label: string;
  symbol: string;
  intent: "definition" | "references" | "call_sites";
  kind?: string;
  language?: string;
  paths?: string[];
}

/**
 * Fixed `find_symbol` lists, one per corpus, in the same spirit as the search lists: definitions of well-known
 * functions and types, call sites and references of very common names (those hit the result cap), a qualified
 * member, names with no definition (the lexical-mention fallback runs for references), a path-restricted and a
 * kind-restricted lookup. Keep them stable: figures are only comparable between runs of the same list.
 */
const LINUX_SYMBOL_LOOKUPS: readonly SymbolLookup[] = [
  { label: "definition", symbol: "kmalloc", intent: "definition" },
  { label: "definition", symbol: "tcp_v4_syn_recv_sock", intent: "definition" },
  { label: "definition (struct)", symbol: "task_struct", intent: "definition" },
  { label: "definition", symbol: "copy_from_user", intent: "definition" },
  { label: "qualified member", symbol: "net_device#netdev_ops", intent: "definition" },
  { label: "call sites", symbol: "mutex_lock", intent: "call_sites" },
  { label: "call sites", symbol: "kfree_rcu", intent: "call_sites" },
  { label: "call sites", symbol: "dev_err", intent: "call_sites" },
  { label: "references (type)", symbol: "sk_buff", intent: "references" },
  { label: "references", symbol: "spin_lock_irqsave", intent: "references" },
  { label: "no definition", symbol: "__builtin_expect", intent: "call_sites" },
  { label: "no such name", symbol: "repoctx_no_such_symbol_zq", intent: "definition" },
  { label: "path glob", symbol: "dma_map_single", intent: "call_sites", paths: ["drivers/net/ethernet/intel/**"] },
  { label: "kind", symbol: "list_head", intent: "definition", kind: "class" },
];

const NODE_MODULES_SYMBOL_LOOKUPS: readonly SymbolLookup[] = [
  { label: "definition", symbol: "createServer", intent: "definition" },
  { label: "definition (common)", symbol: "parse", intent: "definition" },
  { label: "definition (class)", symbol: "Command", intent: "definition" },
  { label: "definition", symbol: "StdioServerTransport", intent: "definition" },
  { label: "qualified member", symbol: "Client#connect", intent: "definition" },
  { label: "call sites", symbol: "readFileSync", intent: "call_sites" },
  { label: "call sites", symbol: "parse", intent: "call_sites" },
  { label: "call sites", symbol: "require", intent: "call_sites" },
  { label: "references (class)", symbol: "EventEmitter", intent: "references" },
  { label: "path glob", symbol: "ZodType", intent: "references", paths: ["zod/**"] },
  { label: "no such name", symbol: "repoctx_no_such_symbol_zq", intent: "references" },
  { label: "language", symbol: "ZodObject", intent: "definition", language: "typescript" },
];

export function symbolLookupsFor(corpus: CorpusName): readonly SymbolLookup[] {
  return corpus === "linux" ? LINUX_SYMBOL_LOOKUPS : NODE_MODULES_SYMBOL_LOOKUPS;
}

/** The arguments `find_symbol` receives for a bench lookup (defaults otherwise: policy result limit). */
export function findSymbolArgs(l: SymbolLookup): Record<string, unknown> {
  return {
    symbol: l.symbol,
    intent: l.intent,
    ...(l.kind ? { kind: l.kind } : {}),
    ...(l.language ? { language: l.language } : {}),
    ...(l.paths ? { paths: l.paths } : {}),
  };
}

/** A lookup as one short table cell. */
export function describeLookup(l: SymbolLookup): string {
  const flags = [l.kind ? `kind ${l.kind}` : "", l.language ? `language ${l.language}` : "", l.paths ? `paths ${l.paths.join(",")}` : ""].filter(
    (s) => s.length > 0,
  );
  return `${l.intent} ${l.symbol}${flags.length > 0 ? ` [${flags.join("; ")}]` : ""}`;
}

/** The file the freshness measurements edit (and restore): one incremental reindex, one overlay build. */
export function freshnessFilesFor(corpus: CorpusName): { incremental: string; overlay: string } {
  return corpus === "linux"
    ? { incremental: "kernel/fork.c", overlay: "kernel/sched/core.c" }
    : { incremental: "commander/lib/command.js", overlay: "commander/lib/command.js" };
}

export function queriesFor(corpus: CorpusName): readonly BenchQuery[] {
  return corpus === "linux" ? LINUX_QUERIES : NODE_MODULES_QUERIES;
}

/** The arguments `search_code` receives for a bench query (defaults otherwise: case-insensitive, policy limits). */
export function searchArgs(q: BenchQuery): Record<string, unknown> {
  return { query: q.query, ...(q.regex ? { regex: true } : {}), ...(q.paths ? { paths: q.paths } : {}) };
}

/** A query as one short table cell. */
export function describeQuery(q: BenchQuery): string {
  const flags = [q.regex ? "regex" : "", q.paths ? `paths ${q.paths.join(",")}` : ""].filter((s) => s.length > 0);
  return flags.length > 0 ? `${q.query} [${flags.join("; ")}]` : q.query;
}

/** A `find_related_tests` call: files about to change, symbols about to change, or both. */
export interface RelatedTestsLookup {
  /** Short label for tables. */
  label: string;
  changedPaths?: string[];
  symbols?: string[];
}

/** A `get_ownership` call: files or folders (a planned new file is asked about too). */
export interface OwnershipLookup {
  /** Short label for tables. */
  label: string;
  paths: string[];
}

/**
 * Fixed `find_related_tests` lists, one per corpus: single files in busy and quiet areas, files with a test beside
 * them or in a mirrored test folder, a test file itself, several files at once, and a lookup by symbol (its
 * definitions join the changed files). Every path is a file of the prepared corpus. Keep them stable.
 */
const LINUX_RELATED_TESTS: readonly RelatedTestsLookup[] = [
  { label: "core file", changedPaths: ["kernel/sched/core.c"] },
  { label: "test_*.c beside it", changedPaths: ["lib/string.c"] },
  { label: "allocator", changedPaths: ["mm/slub.c"] },
  { label: "networking", changedPaths: ["net/ipv4/tcp.c"] },
  { label: "filesystem", changedPaths: ["fs/ext4/inode.c"] },
  { label: "a test itself", changedPaths: ["lib/kunit/test.c"] },
  { label: "driver core (test folder)", changedPaths: ["drivers/base/core.c"] },
  { label: "test_*.c beside it", changedPaths: ["lib/bitmap.c"] },
  { label: "several files", changedPaths: ["kernel/time/time.c", "lib/math/rational.c", "lib/crc32.c"] },
  { label: "symbol", symbols: ["kmalloc"] },
];

const NODE_MODULES_RELATED_TESTS: readonly RelatedTestsLookup[] = [
  { label: "mirrored test folder", changedPaths: ["zod/src/v4/classic/parse.ts"] },
  { label: "mirrored test folder", changedPaths: ["zod/src/v4/core/to-json-schema.ts"] },
  { label: "named test", changedPaths: ["pino/lib/levels.js"] },
  { label: "test folder, same name", changedPaths: ["qs/lib/parse.js"] },
  { label: "package main", changedPaths: ["fast-uri/index.js"] },
  { label: "package main", changedPaths: ["minimist/index.js"] },
  { label: "no tests shipped", changedPaths: ["commander/lib/command.js"] },
  { label: "no tests shipped", changedPaths: ["yaml/dist/parse/lexer.js"] },
  { label: "several files", changedPaths: ["pino/lib/transport.js", "pino/lib/worker.js"] },
  { label: "symbol", symbols: ["safeParse"] },
];

export function relatedTestLookupsFor(corpus: CorpusName): readonly RelatedTestsLookup[] {
  return corpus === "linux" ? LINUX_RELATED_TESTS : NODE_MODULES_RELATED_TESTS;
}

/** The arguments `find_related_tests` receives for a bench lookup (defaults otherwise: 20 results). */
export function relatedTestsArgs(l: RelatedTestsLookup): Record<string, unknown> {
  return { ...(l.changedPaths ? { changedPaths: l.changedPaths } : {}), ...(l.symbols ? { symbols: l.symbols } : {}) };
}

/** A related-tests lookup as one short table cell. */
export function describeRelatedTests(l: RelatedTestsLookup): string {
  return [l.changedPaths ? l.changedPaths.join(", ") : "", l.symbols ? `symbols ${l.symbols.join(", ")}` : ""].filter((s) => s.length > 0).join("; ");
}

/** Fixed `get_ownership` lists: one file, several files, a folder, a planned new file. Keep them stable. */
const LINUX_OWNERSHIP: readonly OwnershipLookup[] = [
  { label: "one file", paths: ["kernel/sched/core.c"] },
  { label: "several files", paths: ["net/ipv4/tcp.c", "net/ipv4/tcp_input.c", "include/net/tcp.h"] },
  { label: "folder", paths: ["drivers/net/ethernet/intel"] },
  { label: "planned new file", paths: ["drivers/misc/repoctx_bench_new.c"] },
  { label: "mixed", paths: ["mm/slub.c", "fs/ext4", "lib/string.c", "MAINTAINERS"] },
];

const NODE_MODULES_OWNERSHIP: readonly OwnershipLookup[] = [
  { label: "one file", paths: ["commander/lib/command.js"] },
  { label: "several files", paths: ["zod/src/v4/classic/schemas.ts", "zod/src/v4/classic/parse.ts", "zod/src/v4/core/core.ts"] },
  { label: "folder", paths: ["@modelcontextprotocol/sdk/dist/esm"] },
  { label: "planned new file", paths: ["pino/lib/repoctx-bench-new.js"] },
  { label: "mixed", paths: ["qs/lib/parse.js", "yaml/dist", "fast-uri/index.js", "minimist"] },
];

export function ownershipLookupsFor(corpus: CorpusName): readonly OwnershipLookup[] {
  return corpus === "linux" ? LINUX_OWNERSHIP : NODE_MODULES_OWNERSHIP;
}

/** The three knowledge resources timed cold and warm, in the order they are first read. */
export const KNOWLEDGE_RESOURCE_URIS = ["repo://map", "repo://build-graph", "repo://risk-map"] as const;

/**
 * A `build_context_package` call, built once per budget in CONTEXT_BUDGETS: a purpose, the task (goal and a small
 * contract with acceptance criteria and allowed paths, so the quality rubric has what it asks for) and what the
 * package is about (symbols, candidate paths or a diff).
 */
export interface ContextPackageSpec {
  /** Short label for tables. */
  label: string;
  purpose: "planning" | "editing" | "judging";
  goal: string;
  symbols?: string[];
  candidatePaths?: string[];
  /** Unified diff (judging). */
  diff?: string;
  contract: { acceptanceCriteria: string[]; allowedPaths: string[] };
}

/** Every package spec is built at each of these token budgets (o200k_base, the tool's default tokenizer). */
export const CONTEXT_BUDGETS = [2000, 8000, 32_000] as const;

/** A small fixed change to two files of the corpus, as `git diff` prints it (the context lines are the corpus's). */
const LINUX_DIFF = `diff --git a/include/linux/sched.h b/include/linux/sched.h
--- a/include/linux/sched.h
+++ b/include/linux/sched.h
@@ -1986,3 +1986,4 @@ extern struct task_struct *find_get_task_by_vpid(pid_t nr);
 extern int wake_up_state(struct task_struct *tsk, unsigned int state);
 extern int wake_up_process(struct task_struct *tsk);
+extern int wake_up_process_flags(struct task_struct *tsk, int wake_flags);
 extern void wake_up_new_task(struct task_struct *tsk);
diff --git a/kernel/sched/core.c b/kernel/sched/core.c
--- a/kernel/sched/core.c
+++ b/kernel/sched/core.c
@@ -4371,7 +4371,12 @@ int wake_up_process(struct task_struct *p)
 int wake_up_process(struct task_struct *p)
 {
-	return try_to_wake_up(p, TASK_NORMAL, 0);
+	return wake_up_process_flags(p, 0);
 }
 EXPORT_SYMBOL(wake_up_process);
+
+int wake_up_process_flags(struct task_struct *p, int wake_flags)
+{
+	return try_to_wake_up(p, TASK_NORMAL, wake_flags);
+}
 
 int wake_up_state(struct task_struct *p, unsigned int state)
`;

const NODE_MODULES_DIFF = `diff --git a/commander/lib/command.js b/commander/lib/command.js
--- a/commander/lib/command.js
+++ b/commander/lib/command.js
@@ -805,5 +805,5 @@ class Command extends EventEmitter {
   requiredOption(flags, description, parseArg, defaultValue) {
     return this._optionEx(
-      { mandatory: true },
+      { mandatory: true, requiredOption: true },
       flags,
       description,
diff --git a/commander/typings/index.d.ts b/commander/typings/index.d.ts
--- a/commander/typings/index.d.ts
+++ b/commander/typings/index.d.ts
@@ -667,6 +667,8 @@ export class Command {
   /**
    * Define a required option, which must have a value after parsing. This usually means
    * the option must be specified on the command line. (Otherwise the same as .option().)
+   *
+   * The option is marked as required in the help.
    *
    * The \`flags\` string contains the short and/or long flags, separated by comma, a pipe or space.
    */
`;

/**
 * Fixed package lists, one per corpus: editing a function found by symbol, planning over three candidate files,
 * judging a two-file diff. Every symbol and path is in the prepared corpus. Keep them stable.
 */
const LINUX_PACKAGES: readonly ContextPackageSpec[] = [
  {
    label: "editing, by symbol",
    purpose: "editing",
    goal: "Make wake_up_process take wake flags from its callers",
    symbols: ["wake_up_process"],
    contract: { acceptanceCriteria: ["existing callers behave as before"], allowedPaths: ["kernel/sched/**", "include/linux/sched.h"] },
  },
  {
    label: "planning, 3 paths",
    purpose: "planning",
    goal: "Add a wake-up latency tracepoint",
    candidatePaths: ["kernel/sched/core.c", "kernel/sched/wait.c", "include/linux/sched.h"],
    contract: { acceptanceCriteria: ["no change in behaviour with tracing off"], allowedPaths: ["kernel/sched/**", "include/**"] },
  },
  {
    label: "judging, 2-file diff",
    purpose: "judging",
    goal: "Let callers of wake_up_process pass wake flags",
    diff: LINUX_DIFF,
    contract: { acceptanceCriteria: ["wake_up_process keeps its behaviour"], allowedPaths: ["kernel/sched/**", "include/linux/sched.h"] },
  },
];

const NODE_MODULES_PACKAGES: readonly ContextPackageSpec[] = [
  {
    label: "editing, by symbol",
    purpose: "editing",
    goal: "Let requiredOption accept a list of choices",
    symbols: ["Command#requiredOption"],
    candidatePaths: ["commander/lib/command.js"],
    contract: { acceptanceCriteria: ["existing option definitions keep parsing"], allowedPaths: ["commander/**"] },
  },
  {
    label: "planning, 3 paths",
    purpose: "planning",
    goal: "Add help groups to options",
    candidatePaths: ["commander/lib/command.js", "commander/lib/option.js", "commander/lib/help.js"],
    contract: { acceptanceCriteria: ["help output unchanged for commands without groups"], allowedPaths: ["commander/**"] },
  },
  {
    label: "judging, 2-file diff",
    purpose: "judging",
    goal: "Mark required options in the help",
    diff: NODE_MODULES_DIFF,
    contract: { acceptanceCriteria: ["options that are not required are unchanged"], allowedPaths: ["commander/**"] },
  },
];

export function contextPackagesFor(corpus: CorpusName): readonly ContextPackageSpec[] {
  return corpus === "linux" ? LINUX_PACKAGES : NODE_MODULES_PACKAGES;
}

/** The arguments `build_context_package` receives (defaults otherwise: target local, o200k_base, 8 files per list). */
export function contextPackageArgs(s: ContextPackageSpec, budgetTokens: number): Record<string, unknown> {
  return {
    purpose: s.purpose,
    goal: s.goal,
    ...(s.symbols ? { symbols: s.symbols } : {}),
    ...(s.candidatePaths ? { candidatePaths: s.candidatePaths } : {}),
    ...(s.diff ? { diff: s.diff } : {}),
    contract: s.contract,
    budgetTokens,
  };
}

/** A package spec as one short table cell. */
export function describeContextPackage(s: ContextPackageSpec): string {
  const what = [
    s.symbols ? `symbols ${s.symbols.join(", ")}` : "",
    s.candidatePaths ? `paths ${s.candidatePaths.join(", ")}` : "",
    s.diff ? `diff of ${[...s.diff.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]).join(", ")}` : "",
  ].filter((x) => x.length > 0);
  return `${s.purpose}: ${what.join("; ")}`;
}

/** The package whose manifest `check_context_freshness` is timed on: the first spec at this budget. */
export const FRESHNESS_PACKAGE_BUDGET = 8000;

/** A `get_change_impact_context` call. */
export interface ChangeImpactLookup {
  /** Short label for tables. */
  label: string;
  candidatePaths: string[];
  symbols?: string[];
  changeType: "bug_fix" | "refactor" | "feature";
  budgetTokens?: number;
}

/**
 * Fixed `get_change_impact_context` lists: a bug fix to one named function (call sites), a refactor of one file
 * (its public symbols are derived and every reference followed), a two-file feature trimmed to a token budget.
 */
const LINUX_IMPACT: readonly ChangeImpactLookup[] = [
  { label: "bug fix, one symbol", candidatePaths: ["kernel/sched/core.c"], symbols: ["wake_up_process"], changeType: "bug_fix" },
  { label: "refactor, derived symbols", candidatePaths: ["lib/string.c"], changeType: "refactor" },
  { label: "feature, 2 files, 8,000 tokens", candidatePaths: ["mm/slub.c", "include/linux/slab.h"], symbols: ["kmem_cache_alloc"], changeType: "feature", budgetTokens: 8000 },
];

const NODE_MODULES_IMPACT: readonly ChangeImpactLookup[] = [
  { label: "bug fix, one symbol", candidatePaths: ["commander/lib/command.js"], symbols: ["Command#requiredOption"], changeType: "bug_fix" },
  { label: "refactor, derived symbols", candidatePaths: ["zod/src/v4/classic/parse.ts"], changeType: "refactor" },
  { label: "feature, 2 files, 8,000 tokens", candidatePaths: ["pino/lib/levels.js", "pino/lib/tools.js"], changeType: "feature", budgetTokens: 8000 },
];

export function changeImpactLookupsFor(corpus: CorpusName): readonly ChangeImpactLookup[] {
  return corpus === "linux" ? LINUX_IMPACT : NODE_MODULES_IMPACT;
}

/** The arguments `get_change_impact_context` receives (defaults otherwise: 12 files per list, no budget). */
export function changeImpactArgs(l: ChangeImpactLookup): Record<string, unknown> {
  return {
    candidatePaths: l.candidatePaths,
    changeType: l.changeType,
    ...(l.symbols ? { symbols: l.symbols } : {}),
    ...(l.budgetTokens ? { budgetTokens: l.budgetTokens } : {}),
  };
}

/** An impact lookup as one short table cell. */
export function describeChangeImpact(l: ChangeImpactLookup): string {
  const flags = [l.symbols ? `symbols ${l.symbols.join(", ")}` : "", l.budgetTokens ? `budget ${l.budgetTokens}` : ""].filter((x) => x.length > 0);
  return `${l.changeType} ${l.candidatePaths.join(", ")}${flags.length > 0 ? ` [${flags.join("; ")}]` : ""}`;
}

/** Questions as an agent or an issue asks them (ranked retrieval, issue #8). Keep them stable. */
const LINUX_QUESTIONS: readonly string[] = [
  "where is the TCP retransmission timer handled",
  "how does the scheduler pick the next task to run on a CPU",
  "free memory pages back to the buddy allocator",
  "ext4 journal commit fails with an I/O error",
  "USB mass storage device is not detected after resume",
  "BUG: kernel NULL pointer dereference\n RIP: 0010:tcp_v4_rcv+0x1a/0x2b0\n Call Trace:\n  ip_local_deliver_finish+0x5c/0x1d0 net/ipv4/ip_input.c:233",
];
const NODE_MODULES_QUESTIONS: readonly string[] = [
  "where does commander parse the command line options",
  "validate an object against a zod schema and report errors",
  "how does the MCP server handle a tools/call request",
  "count tokens of a text with a byte pair encoding",
  "prepare a SQLite statement and bind its parameters",
  "TypeError: Cannot read properties of undefined (reading 'parse')\n    at Command.parseOptions (commander/lib/command.js:1500:20)",
];

export function questionsFor(corpus: CorpusName): readonly string[] {
  return corpus === "linux" ? LINUX_QUESTIONS : NODE_MODULES_QUESTIONS;
}
