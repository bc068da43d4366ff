import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { inventoryHashOf } from "./helpers/inventory-hash.js";
import { openHarness, type Harness } from "./helpers/harness.js";

const SERVICE = "services/pricing/src/main/java/com/acme/pricing/QuoteService.java";
const SERVICE_TEST = "services/pricing/src/test/java/com/acme/pricing/QuoteServiceTest.java";
const APP_YML = "services/pricing/src/main/resources/application.yml";
const PROD_YML = "services/pricing/src/main/resources/application-prod.yml";
/** Fake secrets in the fixture; none may ever appear in a tool's output. */
const SECRETS = ["Pr1c1ng-Sup3r-S3cret", "tfD2Gy6k9Cq5rTb9ZmLJ8wYxN4pQe7sVa1HcKdFu", "AKIAQYLPMN5HHHFPZAM2", "correct-horse-battery-staple"];

type Group = { path: string; trustLevel: string; matchCount: number; hits: { startLine: number; endLine: number; matchLine: number; snippet: string; matchType: string }[]; redacted?: boolean };

describe("MCP tools on the golden repository (SDK client, in-memory transport)", () => {
  let h: Harness;
  const outputs: string[] = [];
  const call = async (tool: string, args: Record<string, unknown> = {}) => {
    const env = await h.call(tool, args);
    outputs.push(JSON.stringify(env));
    return env;
  };

  before(async () => {
    h = await openHarness();
  });
  after(async () => {
    await h.close();
  });

  test("search_code finds a method with exact lines, source ranked above its test", async () => {
    const env = await call("search_code", { query: "isQuoteExpired" });
    assert.equal(env.ok, true);
    assert.equal(env.tool, "search_code");
    assert.equal(env.repoId, "acme/pricing-service");
    assert.equal(env.baseCommit, h.repo.commit);
    assert.match(env.indexVersion!, /^idx-/);
    assert.equal(env.freshness, "base_commit");
    const results = env.data.results as Group[];
    assert.deepEqual(results.map((r) => r.path), [SERVICE, SERVICE_TEST]);
    assert.equal(results[0]!.trustLevel, "source_code");
    assert.equal(results[1]!.trustLevel, "test_code");
    assert.deepEqual(
      { ...results[0]!.hits[0]!, snippet: undefined },
      {
        startLine: 16,
        endLine: 18,
        matchLine: 17,
        column: 20,
        snippet: undefined,
        matchType: "lexical_and_symbol",
        symbol: { kind: "method", qualifiedName: "com.acme.pricing.QuoteService#isQuoteExpired", signature: "public boolean isQuoteExpired(Instant issuedAt, Instant now)" },
      },
    );
    assert.equal(results[1]!.hits[0]!.matchType, "lexical_exact", "a mention in the test is text only");
    assert.match(results[0]!.hits[0]!.snippet, /public boolean isQuoteExpired\(Instant issuedAt, Instant now\)/);
    assert.equal(results[1]!.hits[0]!.matchLine, 13);
    const ev = env.evidence[0]!;
    assert.equal(ev.path, SERVICE);
    assert.equal(ev.startLine, 16);
    assert.equal(ev.endLine, 18);
    assert.equal(ev.commitSha, h.repo.commit);
    assert.equal(ev.indexVersion, env.indexVersion);
    assert.equal(ev.retrieval, "symbol");
    assert.equal(ev.trustLevel, "source_code");
    assert.equal(ev.contentHash, await inventoryHashOf(h, SERVICE));
  });

  test("a definition outranks files that only mention the name; symbol mode finds definitions by prefix", async () => {
    const hybrid = await call("search_code", { query: "quote" });
    const first = (hybrid.data.results as Group[])[0]!;
    assert.equal(first.path, SERVICE, "QuoteService defines quote()");
    assert.equal(first.hits[0]!.matchType, "lexical_and_symbol");
    const lexical = await call("search_code", { query: "quote", mode: "lexical" });
    assert.ok((lexical.data.results as Group[]).every((g) => g.hits.every((x) => x.matchType === "lexical_exact")));
    const sym = await call("search_code", { query: "isQuote", mode: "symbol" });
    const groups = sym.data.results as Group[];
    assert.deepEqual(groups.map((g) => [g.path, g.hits[0]!.matchLine, g.hits[0]!.matchType]), [[SERVICE, 17, "symbol_definition"]]);
  });

  test("search is case-insensitive by default; caseSensitive narrows it", async () => {
    const loose = await call("search_code", { query: "ISQUOTEEXPIRED" });
    assert.equal((loose.data.results as Group[]).length, 2);
    const strict = await call("search_code", { query: "ISQUOTEEXPIRED", caseSensitive: true });
    assert.equal((strict.data.results as Group[]).length, 0);
  });

  test("regex search is verified on content, and a bad regex is invalid_input", async () => {
    const env = await call("search_code", { query: "isQuote\\w+\\(Instant", regex: true });
    const results = env.data.results as Group[];
    assert.deepEqual(results.map((r) => r.path), [SERVICE]);
    assert.equal(results[0]!.hits[0]!.matchType, "lexical_regex");
    const bad = await call("search_code", { query: "(unclosed", regex: true });
    assert.equal(bad.ok, false);
    assert.equal(bad.isError, true);
    assert.equal((bad.data.error as { category: string }).category, "invalid_input");
  });

  test("path globs limit the search", async () => {
    const env = await call("search_code", { query: "quote", paths: ["web/**/*.ts"] });
    const paths = (env.data.results as Group[]).map((r) => r.path);
    assert.ok(paths.length > 0);
    assert.ok(paths.every((p) => p.startsWith("web/")), paths.join(","));
    const folder = await call("search_code", { query: "quote", paths: ["tools"] });
    assert.ok((folder.data.results as Group[]).every((r) => r.path.startsWith("tools/")));
  });

  test("generated files are left out by default and labelled when included", async () => {
    const env = await call("search_code", { query: "fetchQuote" });
    assert.deepEqual((env.data.results as Group[]).map((r) => r.path), ["web/src/quote.ts"]);
    assert.ok(env.warnings.some((w) => w.code === "generated_excluded"));
    const incl = await call("search_code", { query: "fetchQuote", includeGenerated: true });
    const gen = (incl.data.results as Group[]).find((r) => r.path === "web/src/generated/api-client.ts");
    assert.equal(gen?.trustLevel, "generated_code");
  });

  test("trust labels: instructions, untrusted docs", async () => {
    const agents = await call("search_code", { query: "mvnw" });
    assert.equal((agents.data.results as Group[]).find((r) => r.path === "AGENTS.md")?.trustLevel, "repo_instructions");
    const docs = await call("search_code", { query: "Ignore all previous instructions" });
    const hit = (docs.data.results as Group[])[0]!;
    assert.equal(hit.path, "docs/integration.md");
    assert.equal(hit.trustLevel, "repo_documentation_untrusted_instruction");
    assert.equal(docs.evidence[0]!.trustLevel, "repo_documentation_untrusted_instruction");
  });

  test("secret values are redacted in search results, and secret-suspect files are left out", async () => {
    const env = await call("search_code", { query: "password" });
    const yml = (env.data.results as Group[]).find((r) => r.path === APP_YML)!;
    assert.ok(yml, "application.yml matches");
    assert.equal(yml.hits[0]!.matchLine, 8);
    assert.match(yml.hits[0]!.snippet, /password: "\[REDACTED\]"/);
    assert.equal(yml.hits[0]!.snippet.includes("Pr1c1ng"), false);
    const redactedHit = yml.hits[0] as unknown as { redacted: boolean; redactionReasons: string[] };
    assert.equal(redactedHit.redacted, true);
    assert.ok(redactedHit.redactionReasons.length > 0);
    assert.ok(!(env.data.results as Group[]).some((r) => r.path === ".env"), ".env is secret-suspect");
    const aws = await call("search_code", { query: "secret_access_key" });
    assert.equal((aws.data.results as Group[]).length, 0);
    assert.ok(aws.warnings.some((w) => w.code === "secret_suspect_excluded"));
  });

  test("limits: maxResults truncates with a follow-up hint; out-of-bounds and unknown arguments are invalid_input", async () => {
    const env = await call("search_code", { query: "quote", maxResults: 2 });
    const hits = (env.data.results as Group[]).reduce((n, g) => n + g.hits.length, 0);
    assert.equal(hits, 2);
    assert.equal(env.truncated, true);
    assert.match(String((env.data.stats as { followUp?: string }).followUp), /paths/);
    for (const args of [{ query: "x", maxResults: 51 }, { query: "quote", bogus: true }, { query: "" }, {}]) {
      const bad = await call("search_code", args);
      assert.equal(bad.ok, false, JSON.stringify(args));
      assert.equal((bad.data.error as { category: string }).category, "invalid_input");
    }
  });

  test("get_file_slice returns numbered lines with the content hash and classification", async () => {
    const env = await call("get_file_slice", { path: SERVICE, startLine: 17, endLine: 18 });
    assert.equal(env.ok, true);
    const slice = env.data.slice as Record<string, unknown>;
    assert.equal(slice.content, "17|     public boolean isQuoteExpired(Instant issuedAt, Instant now) {\n18|         return issuedAt.plusSeconds(QUOTE_TTL_SECONDS).isBefore(now);");
    assert.equal(slice.contentHash, await inventoryHashOf(h, SERVICE));
    assert.equal(slice.totalLines, 24);
    assert.equal(slice.truncated, false);
    assert.equal(slice.trustLevel, "source_code");
    assert.deepEqual(slice.classification, {
      binary: false,
      generated: false,
      generatedReason: null,
      vendored: false,
      secretSuspect: false,
      instructionLikeText: false,
      skipReason: null,
    });
    assert.deepEqual(env.evidence.map((e) => [e.path, e.startLine, e.endLine]), [[SERVICE, 17, 18]]);
    const whole = await call("get_file_slice", { path: SERVICE, includeLineNumbers: false });
    assert.equal((whole.data.slice as { endLine: number }).endLine, 24);
    assert.ok(String((whole.data.slice as { content: string }).content).startsWith("package com.acme.pricing;"));
  });

  test("get_file_slice redacts secret values in non-suspect files", async () => {
    const env = await call("get_file_slice", { path: APP_YML });
    const slice = env.data.slice as { content: string; redacted: boolean; redactionReasons: string[] };
    assert.match(slice.content, /8\|\s+password: "\[REDACTED\]"/);
    assert.equal(slice.redacted, true);
  });

  test("path guard: traversal, absolute paths and escaping symlinks are query_rejected", async () => {
    for (const path of ["../outside-secret.txt", "/etc/passwd", "docs/../../outside-secret.txt", "%2e%2e/outside-secret.txt", "docs/outside-link.txt", "C:\\Windows\\win.ini"]) {
      const env = await call("get_file_slice", { path });
      assert.equal(env.ok, false, path);
      assert.equal((env.data.error as { category: string }).category, "query_rejected", path);
      assert.equal(JSON.stringify(env).includes(h.repo.base), false, "no host paths in errors");
    }
  });

  test("secret-suspect files are refused; unknown and ignored files are not_found", async () => {
    for (const path of [".env", PROD_YML]) {
      const env = await call("get_file_slice", { path });
      assert.equal((env.data.error as { category: string }).category, "query_rejected", path);
    }
    for (const path of ["nope.txt", "build/output.js"]) {
      const env = await call("get_file_slice", { path });
      assert.equal((env.data.error as { category: string }).category, "not_found", path);
    }
  });

  test("binary files are classified, with no content", async () => {
    const env = await call("get_file_slice", { path: "assets/logo.png" });
    assert.equal(env.ok, true);
    const slice = env.data.slice as { content: null; classification: { binary: boolean; skipReason: string } };
    assert.equal(slice.content, null);
    assert.equal(slice.classification.binary, true);
    assert.ok(env.warnings.some((w) => w.code === "not_text"));
  });

  test("inspect_index reports counts, exclusions with reasons and the policy in force", async () => {
    const env = await call("inspect_index");
    const idx = env.data.index as {
      repoId: string;
      baseCommit: string;
      counts: { files: number; skipped: number; secretSuspect: number };
      languages: { language: string }[];
      exclusions: { reason: string; files: number; examples: string[] }[];
      policy: { maxFileSliceLines: number };
      store: string;
      symbols: { symbols: number; references: number; filesByExtractionStatus: Record<string, number> };
    };
    assert.equal(idx.repoId, "acme/pricing-service");
    assert.equal(idx.baseCommit, h.repo.commit);
    assert.equal(idx.counts.skipped, 4);
    assert.equal(idx.counts.secretSuspect, 5, ".env, application-prod.yml, tls.yml, docs/alerts.md, tools/publish_report.py");
    const reasons = Object.fromEntries(idx.exclusions.map((e) => [e.reason, e]));
    assert.deepEqual(reasons.binary?.examples, ["assets/logo.png"]);
    assert.deepEqual(reasons.too_large?.examples, ["data/huge-dump.sql"]);
    assert.deepEqual(reasons.non_utf8?.examples, ["docs/legacy-latin1.txt"]);
    assert.deepEqual(reasons.symlink_outside_root?.examples, ["docs/outside-link.txt"]);
    assert.equal(reasons.secret_suspect?.files, 5);
    assert.equal(idx.policy.maxFileSliceLines, 300);
    assert.ok(idx.languages.some((l) => l.language === "java"));
    assert.match(idx.store, /^sqlite:/);
    assert.ok(idx.symbols.symbols > 10 && idx.symbols.references > 10, JSON.stringify(idx.symbols));
    assert.ok((idx.symbols.filesByExtractionStatus.ok ?? 0) >= 5, "java, typescript and python files parsed");
  });

  test("repo://map lists languages, the top-level layout and the base commit", async () => {
    const res = await h.client.readResource({ uri: "repo://map" });
    const env = JSON.parse((res.contents[0] as { text: string }).text);
    outputs.push(JSON.stringify(env));
    assert.equal(env.ok, true);
    assert.equal(env.data.map.baseCommit, h.repo.commit);
    const top = env.data.map.topLevel.map((t: { name: string }) => t.name);
    for (const name of ["services", "web", "tools", "docs", "README.md"]) assert.ok(top.includes(name), name);
    assert.ok(env.data.map.languages.some((l: { language: string }) => l.language === "typescript"));
  });

  test("no fake secret appears in any output of this suite", () => {
    assert.ok(outputs.length > 20);
    for (const out of outputs) for (const secret of SECRETS) assert.equal(out.includes(secret), false, `${secret} leaked`);
  });
});
