import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildIndex } from "../src/indexer/pipeline.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { git } from "./helpers/fixture.js";
import { openHarness, type Harness } from "./helpers/harness.js";

const SERVICE = "services/pricing/src/main/java/com/acme/pricing/QuoteService.java";
const SERVICE_TEST = "services/pricing/src/test/java/com/acme/pricing/QuoteServiceTest.java";
const CACHE = "services/pricing/src/main/java/com/acme/pricing/QuoteCache.java";
const CACHE_TEST = "services/pricing/src/test/java/com/acme/pricing/QuoteCacheTest.java";
const MIGRATION = "services/pricing/src/main/resources/db/migration/V1__create_quotes.sql";
const FORMAT = "packages/quote-format/src/format.ts";
const FORMAT_TEST = "packages/quote-format/test/format.test.ts";
const LIMITER = "go/ratelimit/limiter.go";
const LIMITER_TEST = "go/ratelimit/limiter_test.go";
const ADR = "docs/adr/0001-maven-multi-module.md";

interface Module {
  name: string;
  path: string;
  buildSystem: string;
  type: string;
  dependsOn: string[];
  testCommand: string | null;
  testRunner: string | null;
  mainLanguage: string | null;
}
interface RelatedTest {
  path: string;
  confidence: string;
  reasons: string[];
  details: string[];
  testCommandHint: string | null;
  trustLevel?: string;
}
interface Owned {
  path: string;
  owners: string[];
  reviewers: string[];
  rules: { pattern: string; source: string; line: number }[];
  confidence: string;
  unowned: boolean;
}
interface Hint {
  category: string;
  rule: string;
  reason: string;
  path: string;
  startLine: number;
  confidence: string;
}

describe("repository knowledge on the golden repository: modules, ownership, related tests, risk, docs", () => {
  let h: Harness;
  const resource = async (uri: string) => {
    const res = await h.client.readResource({ uri });
    return JSON.parse((res.contents[0] as { text: string }).text);
  };

  before(async () => {
    h = await openHarness();
  });
  after(async () => {
    await h.close();
  });

  test("repo://build-graph: Maven multi-module, npm workspace and Go module with edges and real test commands", async () => {
    const env = await resource("repo://build-graph");
    assert.equal(env.ok, true);
    const g = env.data.buildGraph as { buildSystems: string[]; modules: Module[]; edges: { from: string; to: string }[]; warnings: unknown[] };
    for (const b of ["maven", "npm", "go"]) assert.ok(g.buildSystems.includes(b), b);
    const byName = new Map(g.modules.map((m) => [m.name, m]));
    const pricing = byName.get("pricing")!;
    assert.equal(pricing.path, "services/pricing");
    assert.equal(pricing.buildSystem, "maven");
    assert.deepEqual(pricing.dependsOn, ["pricing-api"]);
    assert.equal(pricing.testCommand, "./mvnw -pl services/pricing test");
    assert.equal(pricing.mainLanguage, "java");
    assert.equal(byName.get("pricing-api")!.path, "services/pricing-api");
    assert.equal(byName.get("pricing-parent")!.path, "");
    const web = byName.get("@acme/pricing-web")!;
    assert.deepEqual(web.dependsOn, ["@acme/quote-format"]);
    assert.equal(web.testCommand, "npm test -w @acme/pricing-web");
    assert.equal(web.testRunner, "node-test");
    const format = byName.get("@acme/quote-format")!;
    assert.equal(format.testRunner, "vitest");
    const go = byName.get("github.com/acme/pricing-service/go/ratelimit")!;
    assert.equal(go.path, "go/ratelimit");
    assert.match(go.testCommand!, /go test \.\/\.\.\./);
    assert.ok(g.edges.some((e) => e.from === "pricing" && e.to === "pricing-api"));
    assert.ok(g.edges.some((e) => e.from === "@acme/pricing-web" && e.to === "@acme/quote-format"));
    assert.deepEqual(g.warnings, []);
    // The manifests are the evidence, labelled as repository metadata.
    const pom = env.evidence.find((e: { path: string }) => e.path === "services/pricing/pom.xml");
    assert.equal(pom.trustLevel, "repo_metadata");
    assert.equal(pom.retrieval, "metadata");
  });

  test("get_ownership: last matching rule wins, with the deciding line; unowned and invalid lines are warned", async () => {
    const env = await h.call("get_ownership", {
      paths: [MIGRATION, SERVICE, "README.md", ADR, LIMITER, "services/pricing", "services/pricing/src/NewFile.java"],
    });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    const byPath = new Map((env.data.paths as Owned[]).map((p) => [p.path, p]));
    const sql = byPath.get(MIGRATION)!;
    assert.deepEqual(sql.owners, ["@acme/dba"]);
    assert.deepEqual(
      sql.rules.map((r) => [r.pattern, r.source, r.line]),
      [["/services/pricing/**/*.sql", "CODEOWNERS", 5]],
    );
    assert.equal(sql.confidence, "high");
    assert.deepEqual(byPath.get(SERVICE)!.owners, ["@acme/pricing-team"]);
    assert.equal(byPath.get(SERVICE)!.rules[0]!.line, 3);
    assert.deepEqual(byPath.get("README.md")!.owners, ["@acme/platform"]);
    assert.equal(byPath.get("README.md")!.confidence, "medium");
    assert.equal(byPath.get(ADR)!.unowned, true);
    assert.equal(byPath.get(ADR)!.confidence, "none");
    assert.deepEqual(byPath.get(LIMITER)!.owners, ["@acme/infra"]);
    assert.deepEqual(byPath.get("services/pricing")!.owners, ["@acme/pricing-team"]);
    assert.deepEqual(byPath.get("services/pricing/src/NewFile.java")!.owners, ["@acme/pricing-team"]);
    assert.ok((env.data.suggestedReviewers as string[]).includes("@acme/pricing-team"));
    const codes = env.warnings.map((w) => w.code);
    assert.ok(codes.includes("unowned_path"));
    assert.ok(codes.includes("codeowners_invalid_lines"));
    assert.ok(env.warnings.some((w) => w.code === "codeowners_invalid_lines" && /line 6/.test(w.message)));
    const ev = env.evidence.find((e) => e.path === "CODEOWNERS" && e.startLine === 5)!;
    assert.equal(ev.trustLevel, "repo_metadata");

    const bad = await h.call("get_ownership", { paths: ["../outside"] });
    assert.equal(bad.ok, false);
    assert.equal((bad.data.error as { category: string }).category, "query_rejected");
  });

  test("repo://ownership lists the rules in order and the invalid owner with its line", async () => {
    const env = await resource("repo://ownership");
    const o = env.data.ownership as { path: string; rules: { pattern: string; line: number }[]; warnings: { line: number; reason: string }[] };
    assert.equal(o.path, "CODEOWNERS");
    assert.deepEqual(
      o.rules.map((r) => r.line),
      [2, 3, 4, 5, 6, 7],
    );
    assert.ok(o.warnings.some((w) => w.line === 6 && /ops-team/.test(w.reason)));
  });

  test("find_related_tests for the Java service: class-name convention, same package, references; Maven command", async () => {
    const env = await h.call("find_related_tests", { changedPaths: [SERVICE] });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    const tests = env.data.tests as RelatedTest[];
    assert.equal(tests[0]!.path, SERVICE_TEST);
    assert.equal(tests[0]!.confidence, "high");
    for (const r of ["name-convention", "same-package", "references-changed-symbol"]) assert.ok(tests[0]!.reasons.includes(r), r);
    assert.equal(tests[0]!.testCommandHint, "./mvnw -pl services/pricing -Dtest=QuoteServiceTest test");
    assert.equal(tests[0]!.trustLevel, "test_code");
    const cache = tests.find((t) => t.path === CACHE_TEST)!;
    assert.ok(cache.reasons.includes("references-changed-symbol"));
    assert.ok(!cache.reasons.includes("name-convention"));
    assert.ok(cache.details.some((d) => /references QuoteService/.test(d)));
    // Tests of other modules are not related to this change.
    assert.ok(!tests.some((t) => t.path.startsWith("web/") || t.path.startsWith("go/")));
    const stats = env.data.stats as { moduleTestCommands: { module: string; command: string }[] };
    assert.deepEqual(stats.moduleTestCommands, [{ module: "pricing", path: "services/pricing", command: "./mvnw -pl services/pricing test", source: stats.moduleTestCommands[0]!.source }]);
  });

  test("find_related_tests for the TS package: mirrored test folder and the vitest command", async () => {
    const env = await h.call("find_related_tests", { changedPaths: [FORMAT] });
    const tests = env.data.tests as RelatedTest[];
    assert.equal(tests[0]!.path, FORMAT_TEST);
    for (const r of ["name-convention", "mirrored-folder", "references-changed-symbol"]) assert.ok(tests[0]!.reasons.includes(r), r);
    assert.equal(tests[0]!.confidence, "high");
    assert.match(tests[0]!.testCommandHint!, /^npm test -w @acme\/quote-format -- .*test\/format\.test\.ts$/);
  });

  test("find_related_tests for the Go package: same package, the test functions in the command", async () => {
    const env = await h.call("find_related_tests", { changedPaths: [LIMITER] });
    const tests = env.data.tests as RelatedTest[];
    assert.equal(tests[0]!.path, LIMITER_TEST);
    for (const r of ["name-convention", "same-package", "references-changed-symbol"]) assert.ok(tests[0]!.reasons.includes(r), r);
    assert.match(tests[0]!.testCommandHint!, /go test/);
    assert.match(tests[0]!.testCommandHint!, /TestAllowStopsAtMax/);
  });

  test("find_related_tests by symbol, and its input errors", async () => {
    const env = await h.call("find_related_tests", { symbols: ["QuoteRequest"] });
    const tests = env.data.tests as RelatedTest[];
    assert.equal(tests[0]!.path, "services/pricing-api/src/test/java/com/acme/pricing/api/QuoteRequestTest.java");
    assert.equal(tests[0]!.testCommandHint, "./mvnw -pl services/pricing-api -Dtest=QuoteRequestTest test");
    const none = await h.call("find_related_tests", {});
    assert.equal((none.data.error as { category: string }).category, "invalid_input");
    const extra = await h.call("find_related_tests", { changedPaths: [SERVICE], because: "x" });
    assert.equal((extra.data.error as { category: string }).category, "invalid_input");
  });

  test("repo://risk-map: each hint names its rule, lines and confidence", async () => {
    const env = await resource("repo://risk-map");
    assert.equal(env.ok, true);
    const cats = env.data.riskMap.categories as { category: string; hints: Hint[] }[];
    const hints = (c: string) => cats.find((x) => x.category === c)!.hints;
    // A line two rules see is one hint: the more confident rule names it, the other is named in its reason.
    const has = (c: string, path: string, rule?: string) =>
      hints(c).some((x) => x.path === path && (rule === undefined || x.rule === rule || x.reason.includes(`also rule ${rule}`)));
    assert.ok(has("migrations", MIGRATION, "versioned-sql"));
    assert.ok(has("generated_code", "web/src/generated/api-client.ts", "generated-file"));
    assert.ok(has("concurrency", CACHE, "jvm-lock"));
    assert.ok(has("concurrency", LIMITER, "mutex"));
    assert.ok(has("data_deletion", CACHE, "deletion-function"));
    assert.ok(has("public_api", "docs/openapi.yaml", "api-description"));
    assert.ok(has("public_api", "services/pricing/src/main/java/com/acme/pricing/http/QuoteRoutes.java", "entrypoint-http-controller"));
    assert.ok(has("security_config", "services/pricing/src/main/resources/application-prod.yml", "production-config"));
    assert.ok(has("billing_pricing", SERVICE, "billing-function"));
    const lock = hints("concurrency").find((x) => x.path === CACHE)!;
    assert.equal(lock.startLine, 7);
    // Tests are not risk surfaces; every hint is evidence with its lines.
    assert.ok(!cats.some((c) => c.hints.some((x) => x.path.includes("/test/"))));
    assert.ok(env.evidence.some((e: { path: string; retrieval: string }) => e.path === MIGRATION && e.retrieval === "heuristic"));
  });

  test("repo://map grows modules, build systems, entrypoints and key documents", async () => {
    const env = await resource("repo://map");
    const map = env.data.map;
    assert.ok(map.buildSystems.includes("maven"));
    assert.ok(map.modules.some((m: Module) => m.name === "pricing" && m.testCommand === "./mvnw -pl services/pricing test"));
    const entry = map.entrypoints as { type: string; path: string; name: string | null }[];
    assert.ok(entry.some((e) => e.type === "main-function" && e.path === "go/ratelimit/cmd/ratelimit/main.go"));
    assert.ok(entry.some((e) => e.type === "http-controller" && e.path.endsWith("QuoteRoutes.java")));
    assert.ok(entry.some((e) => e.type === "package-main" && e.path === "packages/quote-format/package.json"));
    const docs = map.docs.key as { docId: string; title: string; sourceType: string; trustLevel: string; freshness: string }[];
    assert.ok(docs.some((d) => d.docId === "README.md" && d.sourceType === "readme" && d.title === "Pricing service"));
    const agents = docs.find((d) => d.docId === "AGENTS.md")!;
    assert.equal(agents.sourceType, "instructions");
    assert.equal(agents.trustLevel, "repo_instructions");
    assert.ok(docs.every((d) => d.freshness === "base_commit" && typeof d.trustLevel === "string"));
    assert.ok(docs.some((d) => d.docId === ADR && d.sourceType === "adr" && d.title === "ADR 0001: One Maven build for the pricing services"));
    assert.ok(docs.some((d) => d.docId === "docs/openapi.yaml" && d.sourceType === "openapi" && d.title === "Pricing API 1.0.0"));
  });

  test("repo://docs/{docId}: outline and content with the trust label; unknown ids are not_found", async () => {
    const templates = await h.client.listResourceTemplates();
    assert.ok(templates.resourceTemplates.some((t) => t.uriTemplate === "repo://docs/{docId}"));
    const env = await resource(`repo://docs/${encodeURIComponent(ADR)}`);
    assert.equal(env.ok, true, JSON.stringify(env.data));
    assert.equal(env.data.doc.title, "ADR 0001: One Maven build for the pricing services");
    assert.deepEqual(
      env.data.doc.headings.map((x: { text: string; line: number }) => [x.text, x.line]),
      [["ADR 0001: One Maven build for the pricing services", 1], ["Status", 3], ["Decision", 7]],
    );
    assert.match(env.data.content.content, /services\/pricing-api/);
    assert.equal(env.data.content.trustLevel, "repo_documentation");
    const injected = await resource(`repo://docs/${encodeURIComponent("docs/integration.md")}`);
    assert.equal(injected.data.doc.hasInstructionLikeText, true);
    assert.equal(injected.data.content.trustLevel, "repo_documentation_untrusted_instruction");
    const missing = await resource("repo://docs/nope.md");
    assert.equal(missing.ok, false);
    assert.equal(missing.data.error.category, "not_found");
  });

  test("docs are searchable with search_code", async () => {
    const env = await h.call("search_code", { query: "One Maven build" });
    assert.ok((env.data.results as { path: string }[]).some((r) => r.path === ADR));
  });
});

describe("repository knowledge survives broken manifests", () => {
  test("a malformed manifest is a warning with its path; the index and the other modules are fine", async () => {
    const base = mkdtempSync(join(tmpdir(), "repoctx-broken-"));
    try {
      const root = join(base, "repo");
      mkdirSync(join(root, "a"), { recursive: true });
      mkdirSync(join(root, "b"), { recursive: true });
      writeFileSync(join(root, "a/package.json"), '{ "name": "a", "scripts": { "test": "node --test" ');
      writeFileSync(join(root, "b/package.json"), '{ "name": "b", "scripts": { "test": "node --test" } }\n');
      writeFileSync(join(root, "b/index.js"), "export const b = 1;\n");
      writeFileSync(join(root, "CODEOWNERS"), "* @acme/all\n[broken\n");
      git(root, ["init", "-q", "-b", "main"]);
      git(root, ["add", "-A"]);
      git(root, ["commit", "-q", "-m", "broken manifest"]);
      const store = SqliteStore.open(join(base, "index.db"));
      try {
        const r = await buildIndex({ root, store, maxFileBytes: 1 << 20 });
        const k = await store.getKnowledge(r.indexId);
        assert.ok(k.graph.warnings.some((w) => w.path === "a/package.json"));
        assert.deepEqual(
          k.graph.modules.map((m) => m.name),
          ["b"],
        );
        assert.ok(k.ownership.warnings.some((w) => w.line === 2));
        assert.equal(k.ownership.rules.length, 1);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
