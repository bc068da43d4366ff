import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { ChangeImpactBundle } from "../src/query/change-impact.js";
import { defaultMeasure, fitBudget } from "../src/query/change-impact-budget.js";
import { tokenCounter } from "../src/query/context-package/tokens.js";
import { runCli } from "./helpers/cli.js";
import { openHarness, type Harness } from "./helpers/harness.js";

const PKG = "services/pricing/src/main/java/com/acme/pricing";
const SERVICE = `${PKG}/QuoteService.java`;
const NEW_FILE = `${PKG}/PricingGateway.java`;
const HUGE = "data/huge-dump.sql";
const TOOL = "get_change_impact_context";
const count = tokenCounter("o200k_base");
/** Tokens of the whole answer as the client's text content carries it: the envelope's JSON. */
const answerTokens = (env: { isError: boolean }) => {
  const { isError: _e, ...envelope } = env;
  return count(JSON.stringify(envelope));
};

type Labelled = { trustLevel?: string };
type Bundle = ChangeImpactBundle & {
  callSites: (ChangeImpactBundle["callSites"][number] & Labelled)[];
  relatedTests: (ChangeImpactBundle["relatedTests"][number] & Labelled)[];
};

describe("get_change_impact_context on the golden repository", () => {
  let h: Harness;
  const bundleOf = (env: { data: Record<string, unknown> }) => env.data.bundle as Bundle;

  before(async () => {
    h = await openHarness();
  });
  after(async () => {
    await h.close();
  });

  test("an API migration of QuoteService#quote: callers, tests, owners, commands and prohibitions, with evidence", async () => {
    const env = await h.call(TOOL, { candidatePaths: [SERVICE], symbols: ["QuoteService#quote"], changeType: "api_migration" });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    const b = bundleOf(env);

    assert.deepEqual(b.directFiles.map((d) => [d.path, d.language, d.lines, d.module, d.skipReason]), [[SERVICE, "java", 24, "pricing", null]]);
    const quote = b.directFiles[0]!.symbols.find((s) => s.name === "quote")!;
    assert.deepEqual([quote.kind, quote.startLine, quote.endLine, quote.signature], ["method", 10, 15, "public BigDecimal quote(String sku, int quantity)"]);

    const calls = new Map(b.callSites.map((g) => [g.path.slice(PKG.length + 1), g]));
    assert.equal(calls.has("QuoteService.java"), false, "the candidate's own lines are not call sites");
    const lines = (name: string) => calls.get(name)?.hits.map((x) => [x.startLine, x.enclosing, x.matchType]);
    assert.deepEqual(lines("QuoteController.java"), [[14, "com.acme.pricing.QuoteController#getQuote", "syntactic_reference"]]);
    assert.deepEqual(lines("QuoteCache.java"), [[23, "com.acme.pricing.QuoteCache#cachedQuote", "syntactic_reference"]]);
    assert.deepEqual(lines("QuoteBatchJob.java"), [
      [17, "com.acme.pricing.QuoteBatchJob#repriceAll", "syntactic_reference"],
      [24, "com.acme.pricing.QuoteBatchJob#quoteLegacy", "syntactic_reference"],
    ]);
    const controller = calls.get("QuoteController.java")!;
    assert.equal(controller.trustLevel, "source_code");
    assert.equal(controller.module, "pricing");
    assert.match(controller.hits[0]!.snippet!, /quoteService\.quote\(sku, quantity\)/);
    const first = b.callSites.findIndex((g) => g.confidence === "low");
    assert.ok(first < 0 || b.callSites.slice(first).every((g) => g.confidence === "low"), "syntactic callers rank above lexical mentions");

    const serviceTest = b.relatedTests.find((t) => t.path.endsWith("/QuoteServiceTest.java"))!;
    assert.equal(serviceTest.testCommandHint, "./mvnw -pl services/pricing -Dtest=QuoteServiceTest test");
    assert.equal(serviceTest.trustLevel, "test_code");

    const owner = b.ownerHints.find((o) => o.path === SERVICE)!;
    assert.deepEqual([owner.role, owner.owners, owner.rules[0]!.line], ["candidate", ["@acme/pricing-team"], 3]);
    assert.ok(b.ownerHints.some((o) => o.role === "call_site" && o.path.endsWith("QuoteController.java")));

    const verifier = (command: string) => b.verifierHints.find((v) => v.command === command);
    assert.deepEqual(verifier("./mvnw -pl services/pricing test")?.source, { kind: "manifest", path: "services/pricing/pom.xml", detail: "pom.xml <modules>", trustLevel: "repo_metadata" });
    assert.deepEqual(verifier("./mvnw -pl services/pricing -am test")?.source, { kind: "instruction_file", path: "services/pricing/AGENTS.md", line: 3, trustLevel: "repo_instructions" });
    assert.equal(verifier("./mvnw -pl services/pricing -Dtest=QuoteServiceTest test")?.scope, "single_test");

    assert.ok(b.instructions.forbiddenPaths.some((f) => f.glob === "services/pricing/src/main/resources/db/migration/**" && f.ruleId === "services/pricing/AGENTS.md#L4"));
    assert.ok(b.instructions.forbiddenActions.some((a) => a.action === "edit_migrations"));
    assert.equal(b.instructions.outcome, "ok");
    assert.match(b.instructions.effectiveInstructionHash, /^sha256:[0-9a-f]{64}$/);
    const touched = new Set([SERVICE, ...b.callSites.map((g) => g.path)]);
    assert.ok(b.riskHints.every((r) => touched.has(r.path)), "risks of the candidate and its callers only");
    assert.ok(b.riskHints.some((r) => r.category === "concurrency" && r.path.endsWith("QuoteCache.java")), "QuoteCache's lock is a risk at a call site");

    assert.ok(env.evidence.length > 0);
    for (const e of env.evidence) {
      assert.ok(e.path && e.startLine >= 1 && e.endLine >= e.startLine, JSON.stringify(e));
      assert.match(e.contentHash, /^sha256:[0-9a-f]{64}$/);
      assert.notEqual(e.trustLevel, "tool_output", `${e.path} is labelled`);
      assert.equal(e.commitSha, h.repo.commit);
    }
    assert.ok(env.evidence.some((e) => e.path === `${PKG}/QuoteController.java` && e.startLine === 14 && e.retrieval === "syntactic"));
    assert.ok(env.evidence.some((e) => e.path === "services/pricing/AGENTS.md" && e.startLine <= 4 && e.endLine >= 4), "the prohibition is cited");
  });

  test("coverage says what was not analysed: a new file, an oversized file, a language without references", async () => {
    const env = await h.call(TOOL, { candidatePaths: [SERVICE, NEW_FILE, HUGE, "mvnw"], symbols: ["QuoteService#quote"], changeType: "api_migration" });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    const { coverage, directFiles } = bundleOf(env);
    assert.deepEqual(coverage.notIndexed.map((n) => n.path), [NEW_FILE]);
    assert.deepEqual(directFiles.find((d) => d.path === NEW_FILE), { path: NEW_FILE, indexed: false, language: null, lines: null, contentHash: null, module: "pricing", symbolStatus: null, skipReason: null, symbols: [], symbolsTotal: 0 });
    assert.deepEqual(coverage.skipped.map((s) => [s.path, s.skipReason]), [[HUGE, "too_large"]]);
    assert.deepEqual(coverage.overLimits.map((o) => [o.path, o.limit, o.sizeBytes > 1024 * 1024]), [[HUGE, "indexed file size", true]]);
    const shell = coverage.noSyntacticReferences.find((n) => n.language === "shell")!;
    assert.deepEqual([shell.symbolStatus, shell.paths], ["no_grammar", ["mvnw"]]);
    const yaml = coverage.noSyntacticReferences.find((n) => n.language === "yaml");
    assert.deepEqual(yaml?.paths, ["docs/openapi.yaml"], "a call-site file only mentioned in text is lexical at best");
    assert.equal(coverage.noSyntacticReferences.some((n) => n.language === "java"), false);
    assert.ok(!env.evidence.some((e) => e.path === HUGE || e.path === NEW_FILE), "nothing unread is cited");
    assert.ok(coverage.limitations.some((l) => /receiver types are not resolved/.test(l)));
  });

  test("without symbols, the public symbols the candidate defines are followed, as references for a refactor", async () => {
    const env = await h.call(TOOL, { candidatePaths: [SERVICE], changeType: "refactor" });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    const { coverage, callSites } = bundleOf(env);
    assert.equal(coverage.symbolSource, "candidate_files");
    assert.equal(coverage.intent, "references");
    assert.deepEqual(coverage.symbolsFollowed, ["com.acme.pricing.QuoteService", "com.acme.pricing.QuoteService#quote", "com.acme.pricing.QuoteService#isQuoteExpired"]);
    const serviceTest = callSites.find((g) => g.path.endsWith("/QuoteServiceTest.java"))!;
    assert.ok(serviceTest.hits.some((x) => x.symbol === "com.acme.pricing.QuoteService#isQuoteExpired"));
    assert.ok(callSites.some((g) => g.hits.some((x) => x.kind === "type")), "type uses count as references");
  });

  test("symbols not found and ambiguous names are reported, not guessed", async () => {
    const env = await h.call(TOOL, { candidatePaths: [SERVICE], symbols: ["NoSuchService#nope", "getQuote"], changeType: "bug_fix" });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    const { coverage } = bundleOf(env);
    assert.deepEqual(coverage.symbolsNotFound, ["NoSuchService#nope"]);
    const ambiguous = coverage.ambiguousSymbols.find((a) => a.symbol === "getQuote")!;
    assert.deepEqual(ambiguous.candidates.map((c) => c.path).sort(), [`${PKG}/QuoteController.java`, "web/src/quote.ts"]);
  });

  test("maxFiles caps the call-site files and coverage counts the rest", async () => {
    const env = await h.call(TOOL, { candidatePaths: [SERVICE], symbols: ["QuoteService#quote"], changeType: "api_migration", maxFiles: 2 });
    const { callSites, coverage } = bundleOf(env);
    assert.equal(callSites.length, 2);
    const cut = coverage.truncated.find((t) => t.list === "callSites")!;
    assert.equal(cut.shown, 2);
    assert.ok(cut.total! > 2);
    assert.equal(env.truncated, true);
  });

  test("a token budget trims the least valuable items first and keeps coverage and prohibitions", async () => {
    const args = { candidatePaths: [SERVICE], symbols: ["QuoteService#quote"], changeType: "api_migration" };
    const full = await h.call(TOOL, args);
    const budget = 2200;
    assert.ok(answerTokens(full) > budget, "the test needs a bundle larger than the budget");
    const env = await h.call(TOOL, { ...args, budgetTokens: budget });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    assert.ok(answerTokens(env) <= budget, `${answerTokens(env)} tokens`);
    assert.equal(env.truncated, true);
    const b = bundleOf(env);
    const fullBundle = bundleOf(full);
    assert.ok(b.coverage.truncated.some((t) => t.list === "riskHints" && t.total === fullBundle.riskHints.length && /budgetTokens/.test(t.reason)));
    assert.ok(b.callSites.length < fullBundle.callSites.length);
    assert.ok(b.callSites.every((g) => g.confidence === "high"), "low-confidence mentions go first");
    assert.deepEqual(b.instructions.forbiddenPaths, fullBundle.instructions.forbiddenPaths);
    const kept = new Set(b.callSites.map((g) => g.path));
    const dropped = fullBundle.callSites.filter((g) => !kept.has(g.path)).map((g) => g.path);
    assert.ok(!env.evidence.some((e) => dropped.includes(e.path) && e.retrieval !== "heuristic"), "evidence follows the trimmed bundle");

    const tooSmall = await h.call(TOOL, { ...args, budgetTokens: 200 });
    assert.equal(tooSmall.ok, false);
    const error = tooSmall.data.error as { category: string; hint: string };
    assert.equal(error.category, "invalid_input");
    assert.match(error.hint, /raise budgetTokens to at least \d+/);
  });

  test("property: any budget and request either fits the whole answer the client reads, or says how much it needs", async () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const requests = [
      { candidatePaths: [SERVICE], symbols: ["QuoteService#quote"], changeType: "api_migration" },
      { candidatePaths: [SERVICE], changeType: "refactor" },
      { candidatePaths: [SERVICE, NEW_FILE], changeType: "bug_fix", maxFiles: 3 },
    ];
    let fitted = 0;
    for (let i = 0; i < 18; i++) {
      const args = requests[i % requests.length]!;
      const budget = Math.round(400 * Math.pow(40, rand()));
      const env = await h.call(TOOL, { ...args, budgetTokens: budget });
      if (!env.ok) {
        const error = env.data.error as { category: string; hint: string };
        assert.equal(error.category, "invalid_input", `case ${i}`);
        assert.match(error.hint, /raise budgetTokens (to at least|above) \d+/, `case ${i}`);
        continue;
      }
      fitted += 1;
      assert.ok(answerTokens(env) <= budget, `case ${i}: ${answerTokens(env)} tokens > budget ${budget}`);
      const b = bundleOf(env);
      assert.ok(b.coverage && b.instructions.forbiddenPaths, `case ${i}: coverage and prohibitions stay`);
    }
    assert.ok(fitted >= 9, `${fitted} of 18 budgets fitted`);
  });

  test("a tight budget drops a file's inventory (its fields) before any call site or related test", async () => {
    const full = bundleOf(await h.call(TOOL, { candidatePaths: [SERVICE], symbols: ["QuoteService#quote"], changeType: "api_migration" })) as unknown as ChangeImpactBundle;
    assert.ok(full.callSites.length > 0 && full.relatedTests.length > 0, "the test needs call sites and tests");
    const fields = Array.from({ length: 40 }, (_, i) => ({ name: `field${i}`, kind: "field" as const, qualifiedName: `QuoteService#field${i}`, startLine: i + 1, endLine: i + 1, signature: `private final long field${i};`, visibility: "private" }));
    const padded: ChangeImpactBundle = { ...full, directFiles: full.directFiles.map((d, i) => (i === 0 ? { ...d, symbols: [...d.symbols, ...fields] } : d)) };
    const measure = defaultMeasure();
    const budget = measure(padded) - 200;
    const fit = fitBudget(padded, budget, measure);
    assert.ok(measure(fit) <= budget);
    assert.equal(fit.callSites.length, full.callSites.length, "every call site stays while fields can go");
    assert.equal(fit.relatedTests.length, full.relatedTests.length);
    const left = fit.directFiles[0]!.symbols.filter((x) => x.kind === "field").length;
    assert.ok(left < fields.length, `${left} fields left`);
    assert.ok(fit.coverage.truncated.some((t) => t.list.startsWith("directFiles[") && /budgetTokens/.test(t.reason)));
  });

  test("a budget that cannot hold every call site drops the deepest hits across files first: each file keeps its first", async () => {
    const full = bundleOf(await h.call(TOOL, { candidatePaths: [SERVICE], symbols: ["QuoteService#quote"], changeType: "api_migration" })) as unknown as ChangeImpactBundle;
    assert.ok(full.callSites.length >= 2, "the test needs call sites in several files");
    const deep: ChangeImpactBundle = {
      ...full,
      relatedTests: [],
      riskHints: [],
      ownerHints: [],
      verifierHints: [],
      directFiles: full.directFiles.map((d) => ({ ...d, symbols: [] })),
      instructions: { ...full.instructions, files: [], conflicts: [] },
      // High-confidence files only: low and medium ones go before any hit of these, by the drop order.
      callSites: full.callSites.filter((g) => g.confidence === "high").map((g) => ({ ...g, hits: Array.from({ length: 8 }, (_, i) => ({ ...g.hits[0]!, startLine: g.hits[0]!.startLine + i, endLine: g.hits[0]!.startLine + i })) })),
    };
    const measure = defaultMeasure();
    const oneEach: ChangeImpactBundle = { ...deep, callSites: deep.callSites.map((g) => ({ ...g, hits: g.hits.slice(0, 1) })) };
    const budget = Math.round((measure(deep) + measure(oneEach)) / 2);
    const fit = fitBudget(deep, budget, measure);
    assert.ok(measure(fit) <= budget);
    assert.equal(fit.callSites.length, deep.callSites.length, "no file dropped while hits can go");
    for (const g of fit.callSites) {
      assert.ok(g.hits.length >= 1, `${g.path}: ${g.hits.length} hits`);
      assert.equal(g.hits[0]!.startLine, deep.callSites.find((d) => d.path === g.path)!.hits[0]!.startLine, "the first call site stays");
    }
    const counts = fit.callSites.map((g) => g.hits.length);
    assert.ok(counts.some((n) => n < 8), "some hits went");
    assert.ok(Math.max(...counts) - Math.min(...counts) <= 1, `hits dropped evenly across files: ${counts}`);
    assert.ok(fit.coverage.truncated.some((t) => t.list.startsWith("callSites[") && /budgetTokens/.test(t.reason)));
  });

  test("bad input is an invalid_input envelope; a path outside the repository is rejected", async () => {
    const bad = [
      { candidatePaths: [SERVICE] },
      { candidatePaths: [], changeType: "bug_fix" },
      { candidatePaths: [SERVICE], changeType: "rewrite" },
      { candidatePaths: [SERVICE], changeType: "bug_fix", maxFiles: 0 },
      { candidatePaths: [SERVICE], changeType: "bug_fix", budgetTokens: 10 },
      { candidatePaths: [SERVICE], changeType: "bug_fix", verdict: true },
    ];
    for (const args of bad) {
      const env = await h.call(TOOL, args);
      assert.equal(env.ok, false, JSON.stringify(args));
      assert.equal(env.isError, true);
      assert.equal((env.data.error as { category: string }).category, "invalid_input", JSON.stringify(args));
    }
    const outside = await h.call(TOOL, { candidatePaths: ["../outside-secret.txt"], changeType: "bug_fix" });
    assert.equal((outside.data.error as { category: string }).category, "query_rejected");
  });

  test("repoctx impact prints the bundle for people and the envelope as JSON", () => {
    const dir = mkdtempSync(join(tmpdir(), "repoctx-impact-"));
    const store = join(dir, "index.db");
    const cli = (...args: string[]) => runCli(args);
    try {
      assert.equal(cli("index", h.repo.root, "--store", store, "--quiet").status, 0);
      const text = cli("impact", SERVICE, "mvnw", "--symbol", "QuoteService#quote", "--change-type", "api_migration", "--repo", h.repo.root, "--store", store);
      assert.equal(text.status, 0, text.stderr);
      assert.match(text.stdout, /call sites:\n(.*\n)*? {2}services\/pricing\/src\/main\/java\/com\/acme\/pricing\/QuoteController\.java {2}\[high\]\n {4}14: return quoteService\.quote\(sku, quantity\);/);
      assert.match(text.stdout, /\$ \.\/mvnw -pl services\/pricing -am test {2}\(test, instruction; from services\/pricing\/AGENTS\.md:3\)/);
      assert.match(text.stdout, /not analysed:\n(.*\n)*? {2}no syntactic references in shell: mvnw/);
      const json = cli("impact", SERVICE, "--max-files", "1", "--json", "--repo", h.repo.root, "--store", store);
      const env = JSON.parse(json.stdout) as { ok: boolean; data: { bundle: Bundle } };
      assert.equal(env.ok, true);
      assert.equal(env.data.bundle.coverage.changeType, "refactor", "the CLI's default change type");
      assert.equal(env.data.bundle.callSites.length, 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
