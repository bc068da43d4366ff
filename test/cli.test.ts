import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { EXIT } from "../src/cli/exit-codes.js";
import { runCli } from "./helpers/cli.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";

describe("repoctx CLI", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: string;
  const q = (...args: string[]) => runCli([...args, "--repo", repo.root, "--store", store]);

  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-cli-"));
    store = join(dir, "index.db");
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("queries before indexing exit with index_unavailable", () => {
    const r = q("search", "quote");
    assert.equal(r.status, EXIT.index_unavailable, r.stderr);
    assert.match(r.stderr, /repoctx index/);
  });

  test("index prints a summary; progress goes to stderr only", () => {
    const r = runCli(["index", repo.root, "--store", store, "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const summary = JSON.parse(r.stdout);
    assert.equal(summary.repoId, "acme/pricing-service");
    assert.equal(summary.baseCommit, repo.commit);
    assert.equal(summary.skippedFiles, 4);
    assert.match(r.stderr, /inventory/);
  });

  test("search prints grep-like lines and JSON envelopes", () => {
    const text = q("search", "isQuoteExpired");
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /QuoteService\.java {2}\[source_code\]\n {2}17: public boolean isQuoteExpired/);
    const json = JSON.parse(q("search", "isQuoteExpired", "--json").stdout);
    assert.equal(json.ok, true);
    assert.equal(json.evidence[0].startLine, 16);
  });

  test("slice prints the requested lines; errors map to exit codes", () => {
    const ok = q("slice", "services/pricing/src/main/java/com/acme/pricing/QuoteService.java", "--lines", "17:17");
    assert.equal(ok.status, 0, ok.stderr);
    assert.equal(ok.stdout, "17|     public boolean isQuoteExpired(Instant issuedAt, Instant now) {\n");
    assert.equal(q("slice", "../outside-secret.txt").status, EXIT.query_rejected);
    assert.equal(q("slice", "missing.txt").status, EXIT.not_found);
    const stale = q("slice", "README.md", "--expected-hash", `sha256:${"0".repeat(64)}`);
    assert.equal(stale.status, EXIT.stale_context);
    assert.match(stale.stderr, /stale_context/);
    assert.equal(q("slice", "README.md", "--lines", "x:y").status, EXIT.invalid_input);
    // A usage error commander reports in a subcommand (an unknown option, a missing argument) is exit 2 as well.
    assert.equal(q("search", "--no-such-option", "x").status, EXIT.invalid_input);
    assert.equal(q("symbol").status, EXIT.invalid_input);
  });

  test("inspect shows the policy in force", () => {
    const r = q("inspect", "--json");
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).data.index.policy.maxSearchResults, 50);
  });

  test("audit lists the calls the commands made, filtered by tool and time", () => {
    const r = q("audit", "--json", "--tool", "search_code", "--since", "1h");
    assert.equal(r.status, 0, r.stderr);
    const records = JSON.parse(r.stdout) as { tool: string; outcome: string; queryHash: string }[];
    assert.ok(records.length >= 2, "search commands above were audited");
    assert.ok(records.every((x) => x.tool === "search_code" && /^sha256:/.test(x.queryHash)));
    assert.equal(r.stdout.includes("isQuoteExpired"), false, "hashes, not queries");
    const text = q("audit", "--limit", "1");
    assert.match(text.stdout, /^\S+Z {2}\S+/);
    assert.equal(q("audit", "--since", "yesterday-ish").status, EXIT.invalid_input);
  });

  test("context prints the rendered package; freshness reads its manifest back and exits stale after an edit", () => {
    const manifestFile = join(dir, "manifest.json");
    const r = q("context", "editing", "--goal", "Validate quote expiry", "--symbol", "QuoteService#isQuoteExpired", "--allowed", "services/pricing/src/**", "--criterion", "QuoteServiceTest passes", "--budget", "3000", "--manifest-out", manifestFile);
    assert.equal(r.status, EXIT.ok, r.stderr);
    assert.match(r.stdout, /^# SYSTEM\n## Context package/);
    assert.match(r.stdout, /public boolean isQuoteExpired\(Instant issuedAt, Instant now\)/);
    assert.match(r.stderr, /package ctx_[0-9a-f-]+: \d+\/3000 tokens/);
    const openai = q("context", "judging", "--goal", "Review", "--diff", "-", "--target", "openai", "--budget", "2000");
    assert.equal(openai.status, EXIT.invalid_input, "an empty diff on stdin is not a diff");
    const fresh = q("freshness", manifestFile);
    assert.equal(fresh.status, EXIT.ok, fresh.stdout + fresh.stderr);
    assert.match(fresh.stdout, /^fresh/);
    const service = join(repo.root, "services/pricing/src/main/java/com/acme/pricing/QuoteService.java");
    const original = readFileSync(service, "utf8");
    writeFileSync(service, original.replace("900", "600"));
    try {
      const stale = q("freshness", manifestFile);
      assert.equal(stale.status, EXIT.stale_context, stale.stdout + stale.stderr);
      assert.match(stale.stdout, /file_changed: /);
    } finally {
      writeFileSync(service, original);
    }
  });

  test("operator policy: validated, applied, and refused from inside the repository", () => {
    const good = join(dir, "policy.yaml");
    writeFileSync(good, "repoContext:\n  maxSearchResults: 1\n");
    const r = runCli(["search", "quote", "--repo", repo.root, "--store", store, "--policy", good, "--json"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).data.stats.hits, 1);
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "repoContext:\n  maxSearchResults: -3\n  surprise: true\n");
    const b = runCli(["inspect", "--repo", repo.root, "--store", store, "--policy", bad]);
    assert.equal(b.status, EXIT.invalid_input);
    assert.match(b.stderr, /maxSearchResults/);
    assert.match(b.stderr, /surprise|unrecognized/i);
    const inside = join(repo.root, "policy.yaml");
    writeFileSync(inside, "repoContext:\n  includeSecretSuspectFiles: true\n");
    const i = runCli(["inspect", "--repo", repo.root, "--store", store, "--policy", inside]);
    assert.equal(i.status, EXIT.invalid_input);
    assert.match(i.stderr, /inside the served repository/);
    rmSync(inside);
  });
});

describe("repoctx symbol", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: string;
  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-cli-sym-"));
    store = join(dir, "index.db");
    assert.equal(runCli(["index", repo.root, "--store", store, "--quiet"]).status, 0);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("definition, call sites with the enclosing method, and ambiguity", () => {
    const def = runCli(["symbol", "QuoteService#isQuoteExpired", "--repo", repo.root, "--store", store]);
    assert.equal(def.status, 0, def.stderr);
    assert.match(def.stdout, /QuoteService\.java:17 {2}method {2}com\.acme\.pricing\.QuoteService#isQuoteExpired {2}\[symbol_definition, high\]/);
    const calls = runCli(["symbol", "QuoteService#quote", "--calls", "--repo", repo.root, "--store", store]);
    assert.match(calls.stdout, /QuoteController\.java:14 {2}call {2}in com\.acme\.pricing\.QuoteController#getQuote/);
    const amb = runCli(["symbol", "getQuote", "--repo", repo.root, "--store", store]);
    assert.match(amb.stdout, /ambiguous name; candidates:/);
  });
});
