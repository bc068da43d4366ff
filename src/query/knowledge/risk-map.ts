import type { SymbolKind } from "../../core/symbols.js";
import { isDocPath, isTestPath, type LabelInput } from "../../policy/labels.js";
import type { FileRow, SymbolRow } from "../../store/store.js";
import { labelInputOf, type QueryContext } from "../context.js";
import { lineMatches, scanContentRule, skippedLines, type ContentRule } from "./content-rules.js";
import { findEntrypoints } from "./entrypoints.js";
import { knowledgeOf } from "./load.js";
import type { EvidenceDraft } from "../../core/evidence.js";

export const RISK_CATEGORIES = [
  "public_api",
  "generated_code",
  "migrations",
  "security_config",
  "auth_boundary",
  "billing_pricing",
  "data_deletion",
  "concurrency",
  "process_execution",
  "deserialization",
  "sql_from_strings",
  "crypto_secrets",
] as const;
export type RiskCategory = (typeof RISK_CATEGORIES)[number];
export type HintConfidence = "high" | "medium" | "low";

export interface RiskHint {
  category: RiskCategory;
  /** The rule that made the hint (one id per heuristic, stable across releases). */
  rule: string;
  reason: string;
  path: string;
  startLine: number;
  endLine: number;
  confidence: HintConfidence;
  module: string | null;
}

export interface RiskMap {
  categories: { category: RiskCategory; total: number; truncated: boolean; hints: RiskHint[] }[];
}

/** Hints listed per category (the total says how many were found within the scan bounds). */
const MAX_HINTS_PER_CATEGORY = 30;
/** Per content rule: files kept and candidate texts read. */
const CONTENT_LIMITS = { maxFiles: 15, maxReads: 120 };
const SYMBOL_LIMIT = 100;
/** Type definitions read (path order) when looking for public types of library modules. */
const PUBLIC_TYPE_SCAN = 2000;
const INTERNAL_PATH = /(^|\/)(internal|impl|private|examples?|samples?|benchmarks?)(\/|$)/i;
const CONFIDENCE_ORDER: Record<HintConfidence, number> = { high: 0, medium: 1, low: 2 };
/**
 * Code that is read or run by the repository's developers but neither shipped nor deployed: example, sample and
 * demo applications, documentation sources (a Sphinx conf.py), fuzz targets and benchmarks. A route or a
 * `DELETE FROM` there is a demonstration, not a surface of the product.
 */
const NOT_SHIPPED = /(^|\/)(examples?|samples?|demos?|docs?|fuzz|benches|benchmarks?)\//i;
/** Test doubles and fixtures outside test folders: `mocks/`, `httpmock/`, Gradle's `src/testFixtures/`, `mock_x.go`, `x_mock.go`, `fake_x.py`, `x.mock.ts`. */
const TEST_SUPPORT = /(^|\/)(mocks?|fakes?|testfixtures|testutils?|\w+mocks?)\/|(^|\/)(mocks?|fakes?)_[^/]+$|[^/]_(mocks?|fakes?)\.\w+$|\.(mocks?|fakes?)\.\w+$|(^|\/)(mocks?|fakes?|testing|testutils?)\.go$/i;
/** An API description that only tests or examples use (a docs/ folder may hold the real one: `docs/openapi.yaml`). */
function fixtureContract(path: string): boolean {
  return TEST_NAMED.test(path) || isTestPath(path) || TEST_SUPPORT.test(path) || /(^|\/)(examples?|samples?|demos?)\//i.test(path);
}

/** A file named as a test's input (`test.proto`, `test_option.proto`, `test-schema.graphql`): a fixture, not a contract. */
const TEST_NAMED = /(^|\/)test([_.-][^/]*)?\.\w+$/i;
/** A test double by its name, or a method of one: `MockPrompter#AuthToken`, `authTokenStub`, `FakeStore`. */
const TEST_DOUBLE_NAME = /^(Mock|Fake|Stub)[A-Z0-9_]|[a-z0-9](Mock|Fake|Stub)s?$/;
/** TypeScript declaration files: signatures of code that lives (and is hinted) elsewhere. */
const DECLARATION_FILE = /\.d\.[cm]?ts$/;

/** Tests, test support and code that is not shipped: no rule but the file-level facts (generated, CI, contracts) applies there. */
function outsideProduct(path: string): boolean {
  return isTestPath(path) || TEST_SUPPORT.test(path) || NOT_SHIPPED.test(path);
}

interface PathRule {
  id: string;
  category: RiskCategory;
  confidence: HintConfidence;
  reason: string | ((f: FileRow) => string);
  test: (f: FileRow) => boolean;
  /** Applies to examples, docs and test support too (a fact about the file, not a claim about the product). */
  anywhere?: boolean;
}

const SOURCE = /\.(java|kt|kts|scala|groovy|go|rs|c|h|cc|cpp|hpp|cs|py|rb|php|swift|[cm]?[jt]sx?)$/;
const CONFIG_EXT = /\.(ya?ml|json|toml|properties|ini|conf|xml|env)$/i;

const PATH_RULES: PathRule[] = [
  { id: "generated-file", category: "generated_code", confidence: "high", reason: (f) => `generated: ${f.generatedReason ?? "marker"}; edit its source or generator instead`, test: (f) => f.isGenerated, anywhere: true },
  { id: "api-description", category: "public_api", confidence: "high", reason: "API description (OpenAPI/Swagger, protobuf, GraphQL, Avro, Thrift): a contract with clients", test: (f) => /(^|\/)(openapi|swagger)[^/]*\.(ya?ml|json)$|\.(proto|graphqls?|gql|avsc|avdl|thrift)$/i.test(f.path) && !fixtureContract(f.path), anywhere: true },
  { id: "api-package", category: "public_api", confidence: "medium", reason: "source in an `api` folder or package: likely used by other modules or clients", test: (f) => /(^|\/)(api|apis)\//i.test(f.path) && SOURCE.test(f.path) && !INTERNAL_PATH.test(f.path) },
  { id: "migration-folder", category: "migrations", confidence: "high", reason: "database migration: applied once to live data and hard to revert", test: (f) => /(^|\/)(migrations?|db\/migrate|alembic\/versions|flyway|liquibase)\//i.test(f.path) && !isDocPath(f.path) },
  { id: "versioned-sql", category: "migrations", confidence: "high", reason: "versioned SQL migration (V<n>__name.sql)", test: (f) => /(^|\/)[VU]\d+(_\d+)*__\w+\.sql$/.test(f.path) },
  { id: "security-path", category: "security_config", confidence: "medium", reason: "security, authentication or permission configuration by location", test: (f) => /(^|\/)(security|auth|authn|authz|iam|rbac|permissions?|policies)(\/|\.|-|_)/i.test(f.path) && !isDocPath(f.path) },
  { id: "security-config-name", category: "security_config", confidence: "high", reason: "security configuration class or file by name", test: (f) => /(^|\/)[^/]*(Security|Auth)(Config|Configuration)\.\w+$|(^|\/)[^/]*security[^/]*\.(ya?ml|json|xml|properties)$/i.test(f.path) },
  { id: "production-config", category: "security_config", confidence: "medium", reason: "production configuration: credentials, endpoints and limits of the live system", test: (f) => /(^|\/)[^/]*[-_.]prod(uction)?[-_.][^/]*$/i.test(f.path) && CONFIG_EXT.test(f.path) },
  { id: "ci-workflow", category: "security_config", confidence: "medium", reason: "CI workflow: runs with repository secrets and permissions", test: (f) => /^\.github\/workflows\/[^/]+\.ya?ml$|^\.gitlab-ci\.ya?ml$/.test(f.path), anywhere: true },
  { id: "billing-path", category: "billing_pricing", confidence: "low", reason: "billing, payment or pricing code by location", test: (f) => /(^|\/)(billing|payments?|invoic\w*|pricing)(\/|[._-])/i.test(f.path) && f.language !== null && !isDocPath(f.path) && !CONFIG_EXT.test(f.path) },
];

interface SymbolRule {
  id: string;
  category: RiskCategory;
  confidence: HintConfidence;
  reason: string;
  prefixes: string[];
  /** Confirms the name (prefixes are case-insensitive and broad). */
  name: RegExp;
  kinds: SymbolKind[];
  /** A symbol the name matches that is not such an operation after all. */
  skip?: (s: SymbolRow) => boolean;
}

const CALLABLE: SymbolKind[] = ["function", "method"];
/** Types that carry data about an operation (its options, arguments, failure), not the operation: `LoginOptions`, `AuthError`. */
const DATA_TYPE = /(Options|Opts|Args|Params|Types?|Error|Exception)$/;
/** Functions that describe an operation to a person (its help, usage or message text) rather than perform it: `authHelp`. */
const DESCRIBES = /(Help|Usage|Message|Text|Docs?|Example|Description|Hint)$/;
const SYMBOL_RULES: SymbolRule[] = [
  { id: "deletion-function", category: "data_deletion", confidence: "medium", reason: "defines a delete/purge/erase operation", prefixes: ["delete", "purge", "erase", "destroy", "drop", "wipe"], name: /^([Dd]elete|[Pp]urge|[Ee]rase|[Dd]estroy|[Dd]rop|[Ww]ipe)(?![a-z])/, kinds: CALLABLE, skip: (s) => s.name === "drop" && s.path.endsWith(".rs") },
  { id: "auth-function", category: "auth_boundary", confidence: "medium", reason: "defines an authentication or authorization check", prefixes: ["auth", "login", "permission", "checkPermission", "hasRole", "verifyToken", "jwt", "oauth", "csrf"], name: /^([Aa]uthent|[Aa]uthori[sz]|[Aa]uth(?![a-z])|AUTH_|[Ll]ogin(?![a-z])|[Pp]ermission|checkPermission|hasRole|verifyToken|[Jj]wt|JWT|[Oo][Aa]uth|OAUTH|[Cc]srf|CSRF)/, kinds: [...CALLABLE, "class"], skip: (s) => (s.kind === "class" && DATA_TYPE.test(s.name)) || DESCRIBES.test(s.name) },
  { id: "billing-function", category: "billing_pricing", confidence: "medium", reason: "defines billing, payment or pricing logic", prefixes: ["price", "pricing", "billing", "invoice", "payment", "refund", "discount", "subscription", "unitPrice"], name: /^(price|pricing|billing|invoice|payment|refund|discount|subscription|unitPrice)/i, kinds: [...CALLABLE, "class"] },
];

interface CategorizedContentRule extends ContentRule {
  category: RiskCategory;
  confidence: HintConfidence;
  reason: string;
}

const CONTENT_RULES: CategorizedContentRule[] = [
  { id: "jvm-lock", category: "concurrency", confidence: "high", reason: "explicit lock", fragment: "Lock", line: /\b(ReentrantLock|ReentrantReadWriteLock|StampedLock)\b/, path: /\.(java|kt|scala|groovy)$/ },
  { id: "jvm-synchronized", category: "concurrency", confidence: "high", reason: "synchronized block or method", fragment: "synchronized", line: /\bsynchronized\b/, path: /\.(java|kt|scala|groovy)$/ },
  { id: "mutex", category: "concurrency", confidence: "high", reason: "mutex", fragment: "mutex", line: /\b(sync\.)?(RW)?Mutex\b|\bstd::(recursive_|shared_)?mutex\b|\bmutex_(un)?lock\(|\bpthread_mutex_\w+\(/, path: SOURCE },
  { id: "spinlock", category: "concurrency", confidence: "high", reason: "spinlock", fragment: "spin_lock", line: /\bspin_(un)?lock(_irqsave|_irq|_bh)?\(/, path: /\.(c|h)$/ },
  { id: "atomics", category: "concurrency", confidence: "medium", reason: "atomic variable", fragment: "atomic", line: /\bAtomic(Integer|Long|Boolean|Reference)\b|\bstd::atomic\b|"sync\/atomic"|\batomic_(inc|dec|set|read|add|sub)\(/, path: SOURCE },
  { id: "semaphore", category: "concurrency", confidence: "medium", reason: "semaphore", fragment: "semaphore", line: /\bSemaphore\b|\bsem_(wait|post)\(/, path: SOURCE },
  { id: "python-threading", category: "concurrency", confidence: "medium", reason: "thread or lock from threading/asyncio", fragment: "Lock(", line: /\b(threading|asyncio)\.(R?Lock|Semaphore|Condition)\(/, path: /\.py$/ },
  { id: "goroutine", category: "concurrency", confidence: "medium", reason: "starts a goroutine", fragment: "go func", line: /^\s*go func\b/, path: /\.go$/ },
  { id: "sql-delete", category: "data_deletion", confidence: "high", reason: "SQL DELETE", fragment: "delete from", line: /\bDELETE\s+FROM\b/i },
  { id: "sql-drop", category: "data_deletion", confidence: "high", reason: "SQL DROP/TRUNCATE", fragment: "drop table", line: /\b(DROP\s+(TABLE|DATABASE|SCHEMA)|TRUNCATE\s+TABLE)\b/i },
  { id: "bulk-delete-call", category: "data_deletion", confidence: "medium", reason: "bulk delete through a repository or ORM", fragment: "deleteAll", line: /\.deleteAll(ById|InBatch)?\(|\.delete_all\(|\.destroy_all\b/, path: SOURCE },
  { id: "rm-rf", category: "data_deletion", confidence: "medium", reason: "recursive forced delete in a script", fragment: "rm -", line: /\brm\s+-(rf|fr|r\s+-f)\b/, path: /\.(sh|bash|zsh|mk)$|(^|\/)(Makefile|Dockerfile)$/ },
  // Files deleted by code (data_deletion too): what a change to it can destroy on disk.
  { id: "python-file-delete", category: "data_deletion", confidence: "medium", reason: "deletes files or trees", fragment: "os.", line: /\bshutil\.rmtree\(|\bos\.(remove|unlink|rmdir|removedirs)\(/, path: /\.py$/ },
  { id: "node-file-delete", category: "data_deletion", confidence: "medium", reason: "deletes files or trees", fragment: "fs.", line: /\bfs(\.promises)?\.(rm|rmSync|unlink|unlinkSync|rmdir|rmdirSync)\(/, path: /\.[cm]?[jt]sx?$/ },
  { id: "rust-file-delete", category: "data_deletion", confidence: "medium", reason: "deletes files or trees", fragment: "remove_", line: /\bfs::remove_(file|dir|dir_all)\(/, path: /\.rs$/ },
  { id: "go-file-delete", category: "data_deletion", confidence: "medium", reason: "deletes files or trees", fragment: "os.Remove", line: /\bos\.Remove(All)?\(/, path: /\.go$/ },
  // Running other programs: arguments built from input become command injection.
  { id: "python-subprocess", category: "process_execution", confidence: "high", reason: "runs another program", fragment: "subprocess", line: /\bsubprocess\.(run|Popen|call|check_call|check_output|getoutput|getstatusoutput)\(/, path: /\.py$/ },
  { id: "python-os-exec", category: "process_execution", confidence: "high", reason: "runs a shell command or another program", fragment: "os.", line: /\bos\.(system|popen|exec[lv]p?e?|spawn[lv]p?e?)\(/, path: /\.py$/ },
  { id: "node-child-process", category: "process_execution", confidence: "high", reason: "uses child_process to run programs", fragment: "child_process", line: /["'](node:)?child_process["']/, path: /\.[cm]?[jt]sx?$/ },
  { id: "rust-command", category: "process_execution", confidence: "high", reason: "runs another program", fragment: "Command::new", line: /\bCommand::new\(/, path: /\.rs$/ },
  { id: "go-exec-command", category: "process_execution", confidence: "high", reason: "runs another program", fragment: "exec.Command", line: /\bexec\.Command(Context)?\(/, path: /\.go$/ },
  { id: "jvm-runtime-exec", category: "process_execution", confidence: "high", reason: "runs another program", fragment: "getRuntime", line: /\bRuntime\.getRuntime\(\)\.exec\(/, path: /\.(java|kt|scala|groovy)$/ },
  { id: "jvm-process-builder", category: "process_execution", confidence: "high", reason: "runs another program", fragment: "ProcessBuilder", line: /\bnew ProcessBuilder\(|\bProcessBuilder\(/, path: /\.(java|kt|scala|groovy)$/ },
  { id: "c-system", category: "process_execution", confidence: "medium", reason: "runs a shell command", fragment: "system", line: /(^|[^\w.>])system\s*\(/, path: /\.(c|cc|cpp|cxx)$/ },
  { id: "c-exec", category: "process_execution", confidence: "medium", reason: "replaces the process with another program", fragment: "exec", line: /(^|[^\w.>])exec(v|vp|ve|l|lp|le)\s*\(/, path: /\.(c|cc|cpp|cxx)$/ },
  { id: "c-popen", category: "process_execution", confidence: "medium", reason: "runs a shell command through a pipe", fragment: "popen", line: /(^|[^\w.>])popen\s*\(/, path: /\.(c|cc|cpp|cxx)$/ },
  // Turning untrusted bytes into objects.
  { id: "python-pickle", category: "deserialization", confidence: "high", reason: "unpickles data: code runs while loading", fragment: "load", line: /\b(c?[Pp]ickle|dill|joblib|marshal)\.loads?\(/, path: /\.py$/ },
  { id: "python-yaml-load", category: "deserialization", confidence: "medium", reason: "yaml.load without the safe loader", fragment: "yaml.", line: /\byaml\.(unsafe_load|load)\((?![^)]*Safe)/, path: /\.py$/ },
  { id: "jvm-object-stream", category: "deserialization", confidence: "high", reason: "Java object deserialization", fragment: "ObjectInputStream", line: /\bnew \w*ObjectInputStream\(|\bObjectInputStream\s+\w+\s*[=,)]|\bextends\s+ObjectInputStream\b/, path: /\.(java|kt|scala|groovy)$/ },
  { id: "ruby-marshal", category: "deserialization", confidence: "high", reason: "Marshal.load of data", fragment: "Marshal.load", line: /\bMarshal\.load\(/, path: /\.rb$/ },
  { id: "php-unserialize", category: "deserialization", confidence: "high", reason: "unserialize of data", fragment: "unserialize", line: /\bunserialize\(/, path: /\.php$/ },
  // SQL put together from strings: injection if any part comes from input.
  { id: "sql-string-built", category: "sql_from_strings", confidence: "medium", reason: "SQL built with formatting or concatenation", fragment: "execute", line: /\.(execute|executemany|executescript|raw)\(\s*(f["']|["'][^"'\n]*["']\s*(%|\+|\.format\())/, path: /\.(py|rb|php|[cm]?[jt]sx?)$/ },
  { id: "go-sql-sprintf", category: "sql_from_strings", confidence: "medium", reason: "SQL built with fmt.Sprintf", fragment: "Sprintf", line: /\bfmt\.Sprintf\(\s*["`]\s*(select|insert|update|delete|replace|upsert)\b/i, path: /\.go$/ },
  { id: "go-sql-concat", category: "sql_from_strings", confidence: "medium", reason: "SQL built by concatenation", fragment: "\"", line: /\.(Query|QueryRow|Exec|QueryContext|QueryRowContext|ExecContext|Prepare|PrepareContext)\((?:ctx,\s*)?"[^"\n]*"\s*\+/, path: /\.go$/ },
  { id: "jdbc-string-built", category: "sql_from_strings", confidence: "medium", reason: "SQL built by concatenation", fragment: "execute", line: /\.(executeQuery|executeUpdate|execute|prepareStatement)\(\s*"[^"\n]*"\s*\+/, path: /\.(java|kt|scala|groovy)$/ },
  // Signing and the secrets sessions and tokens are signed with.
  { id: "session-secret", category: "crypto_secrets", confidence: "medium", reason: "a signing secret (sessions, tokens)", fragment: "secret", line: /\b(SECRET_KEY|secret_key|session_secret|SESSION_SECRET|JWT_SECRET|jwt_secret|signing_key|SIGNING_KEY)\b/, path: SOURCE, codeOnly: true },
  { id: "itsdangerous-signing", category: "crypto_secrets", confidence: "high", reason: "signs data with itsdangerous", fragment: "itsdangerous", line: /\bitsdangerous\b/, path: /\.py$/ },
  { id: "hmac-signing", category: "crypto_secrets", confidence: "high", reason: "HMAC signing or verification", fragment: "hmac", line: /\bhmac\.(new|compare_digest|digest)\(|\bcreateHmac\(|\bHmac(Sha\d+)?\b|\bMac\.getInstance\(/, path: SOURCE },
  { id: "jwt-signing", category: "crypto_secrets", confidence: "high", reason: "signs or verifies JSON web tokens", fragment: "jwt", line: /\bjwt\.(encode|decode|sign|verify)\(/, path: SOURCE },
  { id: "kernel-export", category: "public_api", confidence: "medium", reason: "symbol exported to loadable modules", fragment: "EXPORT_SYMBOL", line: /^\s*EXPORT_SYMBOL(_GPL|_NS|_NS_GPL)?\(/, path: /\.c$/ },
  { id: "spring-security", category: "security_config", confidence: "high", reason: "security framework configuration", fragment: "Security", line: /@Enable(Web|GlobalMethod|Method|WebFlux)Security\b/, path: /\.(java|kt)$/ },
  { id: "method-authorization", category: "auth_boundary", confidence: "high", reason: "method-level authorization annotation", fragment: "@", line: /@(PreAuthorize|PostAuthorize|Secured|RolesAllowed)\b/, path: /\.(java|kt)$/ },
];

function pathRuleApplies(r: PathRule, f: FileRow): boolean {
  return r.test(f) && (r.anywhere === true || !outsideProduct(f.path));
}

function symbolRuleApplies(r: SymbolRule, s: SymbolRow): boolean {
  if (!r.kinds.includes(s.kind) || !r.name.test(s.name) || r.skip?.(s)) return false;
  if (s.qualifiedName.split(/[.#:]/).slice(-2).some((part) => TEST_DOUBLE_NAME.test(part))) return false;
  return !s.file.isVendored && !s.file.isGenerated && !outsideProduct(s.path) && !DECLARATION_FILE.test(s.path);
}

/** Content rules read product code only: generated files have their own hint, and tests, docs and examples none. */
const skipForContent = (f: { path: string; isGenerated: boolean }) => f.isGenerated || outsideProduct(f.path) || isDocPath(f.path);

function hintOrder(a: RiskHint, b: RiskHint): number {
  return CONFIDENCE_ORDER[a.confidence] - CONFIDENCE_ORDER[b.confidence] || a.path.localeCompare(b.path) || a.startLine - b.startLine || a.rule.localeCompare(b.rule);
}

/**
 * One hint per thing per category: two rules that see the same line (a route found as an entrypoint and by its
 * decorator) make one hint, the more confident one, whose reason names the other rules too.
 */
function onePerThing(hints: RiskHint[]): RiskHint[] {
  const kept = new Map<string, RiskHint>();
  for (const h of [...hints].sort(hintOrder)) {
    const key = `${h.category}\u0000${h.path}\u0000${h.startLine}`;
    const first = kept.get(key);
    if (!first) kept.set(key, { ...h });
    else if (first.rule !== h.rule && !first.reason.includes(`rule ${h.rule}`)) first.reason += `; also rule ${h.rule}`;
  }
  return [...kept.values()].sort(hintOrder);
}

/**
 * Where a change needs more care: public API surfaces, generated code, migrations, security and auth, billing,
 * data deletion and concurrency. Every hint names the rule that made it and the lines it saw; heuristics, bounded
 * per rule, never a verdict.
 */
export async function riskMap(ctx: QueryContext): Promise<{ map: RiskMap; evidence: EvidenceDraft[]; labels: Map<string, LabelInput>; truncated: boolean }> {
  const k = await knowledgeOf(ctx);
  const hints: RiskHint[] = [];
  const files = new Map<string, FileRow>();
  const keep = (f: FileRow) => files.set(f.path, f);
  const moduleName = (path: string) => k.moduleOf(path)?.name ?? null;
  let truncated = false;

  for (const f of await ctx.store.listFiles(ctx.index.id)) {
    if (f.skipReason !== null || f.isVendored || isTestPath(f.path)) continue;
    for (const r of PATH_RULES) {
      if (!pathRuleApplies(r, f)) continue;
      keep(f);
      const reason = typeof r.reason === "string" ? r.reason : r.reason(f);
      hints.push({ category: r.category, rule: r.id, reason, path: f.path, startLine: 1, endLine: Math.max(1, f.lineCount ?? 1), confidence: r.confidence, module: moduleName(f.path) });
    }
  }
  for (const e of (await findEntrypoints(ctx, k)).items) {
    if (e.type !== "package-main" && e.type !== "cli-bin" && e.type !== "http-controller" && e.type !== "http-route") continue;
    if (outsideProduct(e.path)) continue;
    const f = await ctx.store.getFile(ctx.index.id, e.path);
    if (!f) continue;
    keep(f);
    const line = e.startLine ?? 1;
    hints.push({ category: "public_api", rule: `entrypoint-${e.type}`, reason: `${e.type.replace("-", " ")} exposed to users or other packages`, path: f.path, startLine: line, endLine: e.endLine ?? line, confidence: e.type === "package-main" || e.type === "cli-bin" ? "high" : "medium", module: moduleName(f.path) });
  }
  for (const r of SYMBOL_RULES) {
    const seen = new Set<string>();
    for (const prefix of r.prefixes) {
      const rows = await ctx.store.findSymbols(ctx.index.id, { namePrefix: prefix, kinds: r.kinds, limit: SYMBOL_LIMIT });
      if (rows.length >= SYMBOL_LIMIT) truncated = true;
      for (const s of rows) {
        const key = `${s.path}:${s.startLine}:${s.name}`;
        if (seen.has(key) || !symbolRuleApplies(r, s)) continue;
        seen.add(key);
        keep(s.file);
        hints.push({ category: r.category, rule: r.id, reason: `${r.reason}: ${s.kind} ${s.qualifiedName}`, path: s.path, startLine: s.startLine, endLine: s.endLine, confidence: r.confidence, module: moduleName(s.path) });
      }
    }
  }
  // Public types of library modules outside internal packages: what other code compiles against.
  const libraries = new Set(k.graph.modules.filter((m) => m.type === "library").map((m) => m.path));
  if (libraries.size > 0) {
    const types = await ctx.store.findSymbols(ctx.index.id, { kinds: ["class", "interface", "enum"], limit: PUBLIC_TYPE_SCAN });
    if (types.length >= PUBLIC_TYPE_SCAN) truncated = true;
    for (const s of types) {
      const m = k.moduleOf(s.path);
      if (s.visibility !== "public" || s.container !== null || !m || !libraries.has(m.path)) continue;
      if (INTERNAL_PATH.test(s.path) || s.file.isVendored || s.file.isGenerated || outsideProduct(s.path)) continue;
      keep(s.file);
      hints.push({ category: "public_api", rule: "library-public-type", reason: `public ${s.kind} ${s.qualifiedName} of library ${m.name}`, path: s.path, startLine: s.startLine, endLine: s.startLine, confidence: "low", module: m.name });
    }
  }
  for (const r of CONTENT_RULES) {
    const found = await scanContentRule(ctx, r, { ...CONTENT_LIMITS, skip: skipForContent });
    truncated ||= found.more;
    for (const m of found.matches) {
      keep(m.file);
      const line = m.lines[0]!;
      const more = m.matchedLines > 1 ? ` (${m.matchedLines} lines in this file, first at ${m.lines.join(", ")})` : "";
      hints.push({ category: r.category, rule: r.id, reason: `${r.reason}${more}`, path: m.file.path, startLine: line, endLine: line, confidence: r.confidence, module: moduleName(m.file.path) });
    }
  }

  const distinct = onePerThing(hints);
  const categories = RISK_CATEGORIES.map((category) => {
    const all = distinct.filter((h) => h.category === category);
    return { category, total: all.length, truncated: all.length > MAX_HINTS_PER_CATEGORY, hints: all.slice(0, MAX_HINTS_PER_CATEGORY) };
  });
  const labels = new Map<string, LabelInput>();
  const evidence: EvidenceDraft[] = [];
  for (const c of categories) {
    truncated ||= c.truncated;
    for (const h of c.hints) {
      const f = files.get(h.path)!;
      labels.set(f.path, labelInputOf(f));
      evidence.push({ path: h.path, startLine: h.startLine, endLine: h.endLine, contentHash: f.contentHash, retrieval: "heuristic" });
    }
  }
  return { map: { categories }, evidence, labels, truncated };
}

/** Hints kept per file by riskHintsFor: a file with hundreds of exported symbols needs a count, not a list. */
const MAX_HINTS_PER_FILE = 20;

/**
 * The risk hints of given files, every rule applied to each of them (path, entrypoint, symbol and content rules),
 * without the repository-wide bounds of riskMap: what a change to these files needs to know. Unknown, skipped,
 * vendored and test files get none.
 */
export async function riskHintsFor(ctx: QueryContext, paths: Iterable<string>): Promise<{ hints: RiskHint[]; truncated: boolean }> {
  const k = await knowledgeOf(ctx);
  const entrypoints = (await findEntrypoints(ctx, k)).items;
  const libraries = new Set(k.graph.modules.filter((m) => m.type === "library").map((m) => m.path));
  const out: RiskHint[] = [];
  let truncated = false;
  for (const path of new Set(paths)) {
    const f = await ctx.store.getFile(ctx.index.id, path);
    if (!f || f.skipReason !== null || f.isVendored || isTestPath(f.path)) continue;
    const moduleName = k.moduleOf(f.path)?.name ?? null;
    const hints: RiskHint[] = [];
    const add = (h: Omit<RiskHint, "path" | "module">) => hints.push({ ...h, path: f.path, module: moduleName });
    for (const r of PATH_RULES) {
      if (pathRuleApplies(r, f)) add({ category: r.category, rule: r.id, reason: typeof r.reason === "string" ? r.reason : r.reason(f), startLine: 1, endLine: Math.max(1, f.lineCount ?? 1), confidence: r.confidence });
    }
    for (const e of entrypoints) {
      if (e.path !== f.path || (e.type !== "package-main" && e.type !== "cli-bin" && e.type !== "http-controller" && e.type !== "http-route")) continue;
      if (outsideProduct(e.path)) continue;
      const line = e.startLine ?? 1;
      add({ category: "public_api", rule: `entrypoint-${e.type}`, reason: `${e.type.replace("-", " ")} exposed to users or other packages`, startLine: line, endLine: e.endLine ?? line, confidence: e.type === "package-main" || e.type === "cli-bin" ? "high" : "medium" });
    }
    if (!f.isGenerated) {
      const m = k.moduleOf(f.path);
      for (const sym of await ctx.store.findSymbols(ctx.index.id, { path: f.path, limit: 5000 })) {
        for (const r of SYMBOL_RULES) {
          if (symbolRuleApplies(r, sym)) add({ category: r.category, rule: r.id, reason: `${r.reason}: ${sym.kind} ${sym.qualifiedName}`, startLine: sym.startLine, endLine: sym.endLine, confidence: r.confidence });
        }
        const publicType = (sym.kind === "class" || sym.kind === "interface" || sym.kind === "enum") && sym.visibility === "public" && sym.container === null;
        if (publicType && m && libraries.has(m.path) && !INTERNAL_PATH.test(f.path) && !outsideProduct(f.path)) {
          add({ category: "public_api", rule: "library-public-type", reason: `public ${sym.kind} ${sym.qualifiedName} of library ${m.name}`, startLine: sym.startLine, endLine: sym.startLine, confidence: "low" });
        }
      }
    }
    if (!skipForContent(f) && !f.isSecretSuspect) {
      const text = (await ctx.store.getContent(ctx.index.id, f.path))?.split("\n") ?? [];
      const skipped = skippedLines(f.path, text);
      for (const r of CONTENT_RULES) {
        if (r.path && !r.path.test(f.path)) continue;
        const lines = text.flatMap((l, i) => (!skipped[i] && lineMatches(r, l) ? [i + 1] : []));
        if (lines.length === 0) continue;
        const more = lines.length > 1 ? ` (${lines.length} lines in this file, first at ${lines.slice(0, 5).join(", ")})` : "";
        add({ category: r.category, rule: r.id, reason: `${r.reason}${more}`, startLine: lines[0]!, endLine: lines[0]!, confidence: r.confidence });
      }
    }
    const distinct = onePerThing(hints);
    if (distinct.length > MAX_HINTS_PER_FILE) truncated = true;
    out.push(...distinct.slice(0, MAX_HINTS_PER_FILE));
  }
  return { hints: out.sort(hintOrder), truncated };
}