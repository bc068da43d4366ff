import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { updateIndex } from "../src/indexer/pipeline.js";
import type { ContextManifest } from "../src/query/context-package/manifest-schema.js";
import { judgePackage } from "../src/query/context-package/quality.js";
import { MESSAGE_OVERHEAD_TOKENS } from "../src/query/context-package/render.js";
import { tokenCounter } from "../src/query/context-package/tokens.js";
import { redactText } from "../src/policy/redact.js";
import { PLATFORM_SAFETY_RULES } from "../src/query/instructions/rule-sources.js";
import { git } from "./helpers/fixture.js";
import { openHarness, type Harness } from "./helpers/harness.js";

const SERVICE = "services/pricing/src/main/java/com/acme/pricing/QuoteService.java";
const BATCH = "services/pricing/src/main/java/com/acme/pricing/QuoteBatchJob.java";
const FORMAT = "packages/quote-format/src/format.ts";
const LIMITER = "go/ratelimit/limiter.go";
const INTEGRATION_DOC = "docs/integration.md";

const CONTRACT = {
  allowedPaths: ["services/pricing/src/**"],
  forbiddenPaths: ["api/openapi/**", "docs/openapi.yaml"],
  acceptanceCriteria: ["QuoteServiceTest passes", "no call to quoteLegacy remains under services/pricing/src/main"],
};

interface Pkg {
  package: {
    packageId: string;
    purpose: string;
    blocks: { id: string; kind: string; role: string; priority: string; form: string; trustLevel: string; evidence?: { id: string; path: string } }[];
    omitted: { kind: string }[];
    diffReview: { violations: { kind: string; path?: string; glob?: string }[] } | null;
    budget: { maxTokens: number; usedTokens: number };
    constraints: { forbiddenPaths: { glob: string }[] };
    coverage: { notIndexed: string[]; symbolsNotFound: string[] };
  };
  rendered: Record<string, unknown>;
  manifest: ContextManifest;
  quality: { accepted: boolean; reasons: { code: string }[] };
}

/** The texts a model reads in each target's shape: what the budget must hold. */
function textsOf(rendered: Record<string, unknown>): string[] {
  const r = rendered as {
    prompt?: string;
    messages?: { content: string | { text: string }[] }[];
    system?: string;
    systemInstruction?: { parts: { text: string }[] };
    contents?: { parts: { text: string }[] }[];
  };
  if (typeof r.prompt === "string") return [r.prompt];
  if (r.systemInstruction) return [...r.systemInstruction.parts.map((p) => p.text), ...r.contents!.flatMap((c) => c.parts.map((p) => p.text))];
  const messages = (r.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : m.content.map((c) => c.text).join("")));
  return typeof r.system === "string" ? [r.system, ...messages] : messages;
}

const count = tokenCounter("o200k_base");
const recount = (texts: string[]) => texts.reduce((n, t) => n + count(t) + MESSAGE_OVERHEAD_TOKENS, 0);

/** Small deterministic generator: the same cases on every run, different cases per seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sha256(buf: Buffer | string): string {
  return `sha256:${createHash("sha256").update(buf).digest("hex")}`;
}

describe("build_context_package on the golden repository", () => {
  let h: Harness;
  const build = async (args: Record<string, unknown>) => {
    const env = await h.call("build_context_package", args);
    assert.equal(env.ok, true, JSON.stringify(env.data));
    return { env, pkg: env.data as unknown as Pkg, text: textsOf((env.data as unknown as Pkg).rendered).join("\n") };
  };

  before(async () => {
    h = await openHarness();
  });
  after(async () => {
    await h.close();
  });

  test("return: rendered gives data.rendered alone, the whole answer within budgetTokens; the full answer says what comes on top", async () => {
    const args = { purpose: "editing", goal: "Reject quotes for more than 1000 units in QuoteService#quote", symbols: ["QuoteService#quote"], contract: CONTRACT, budgetTokens: 3000 };
    const full = await h.call("build_context_package", args);
    const alone = await h.call("build_context_package", { ...args, return: "rendered" });
    assert.equal(alone.ok, true, JSON.stringify(alone.data));
    assert.deepEqual(Object.keys(alone.data), ["rendered"]);
    const prompt = (alone.data.rendered as { prompt: string }).prompt;
    // The whole answer, envelope and evidence included, is what the budget bounds here: the prompt is what is left.
    const { isError: _e, ...answer } = alone;
    assert.ok(count(JSON.stringify(answer)) <= 3000, `${count(JSON.stringify(answer))} tokens`);
    assert.ok(count(prompt) <= 3000, `${count(prompt)} tokens`);
    assert.ok(prompt.includes("QuoteService"), "the package is still about the target");
    assert.ok(count(JSON.stringify(alone.data)) < count(JSON.stringify(full.data)) / 1.5, "blocks, manifest and quality were most of the full answer");
  });

  test("an editing package holds the target span with its header and helper, call sites, the test and the verifier", async () => {
    const { env, pkg, text } = await build({
      purpose: "editing",
      goal: "Reject quotes for more than 1000 units in QuoteService#quote",
      symbols: ["QuoteService#quote"],
      contract: CONTRACT,
      budgetTokens: 6000,
    });
    assert.equal(pkg.quality.accepted, true, JSON.stringify(pkg.quality));
    const kinds = pkg.package.blocks.map((b) => b.kind);
    for (const k of ["package_header", "platform_policy", "output_contract", "goal", "repo_instruction", "verification_commands", "symbol_definition", "call_site", "test_file"]) {
      assert.ok(kinds.includes(k), `${k} in ${kinds.join(",")}`);
    }
    // Lossless excerpt with line numbers: the method, the package line, and the private helper it calls.
    assert.match(text, /10\| {5}public BigDecimal quote\(String sku, int quantity\) \{/);
    assert.match(text, /1\| package com\.acme\.pricing;/);
    assert.match(text, /private BigDecimal unitPrice\(String sku\)/);
    assert.match(text, /quoteService\.quote\(sku, quantity\)/, "the controller's call site");
    assert.match(text, /QuoteServiceTest/);
    assert.match(text, /\.\/mvnw -pl services\/pricing/);
    // Authority in the system message, working material in the user message; policy before instructions.
    const roles = new Map(pkg.package.blocks.map((b) => [b.kind, b.role]));
    assert.equal(roles.get("platform_policy"), "system");
    assert.equal(roles.get("repo_instruction"), "user");
    assert.ok(text.indexOf("Platform and operator policy") < text.indexOf("Repository instructions"));
    // Every evidence block is in the manifest and the envelope's evidence, with the file's real hash.
    const served = new Set(env.evidence.map((e) => `${e.path}:${e.startLine}-${e.endLine}`));
    for (const e of pkg.manifest.evidence) {
      assert.equal(e.hash, sha256(readFileSync(join(h.repo.root, e.path))), e.path);
      assert.ok(served.has(`${e.path}:${e.startLine}-${e.endLine}`));
    }
    assert.equal(pkg.manifest.purpose, "editing");
    assert.equal(pkg.manifest.baseCommit, h.repo.commit);
    assert.match(pkg.manifest.constraintsHash, /^sha256:[0-9a-f]{64}$/);
    assert.match(pkg.manifest.effectiveInstructionHash, /^sha256:/);
    assert.ok(pkg.manifest.instructionSources.some((s) => s.path === "services/pricing/AGENTS.md"));
    assert.ok(pkg.package.budget.usedTokens <= 6000);
  });

  test("a migration package states the semantic delta and picks existing uses of the new API as examples", async () => {
    const { pkg, text } = await build({
      purpose: "editing",
      goal: "Replace QuoteBatchJob#quoteLegacy with direct QuoteService#quote calls",
      candidatePaths: [BATCH],
      migration: { from: "QuoteBatchJob#quoteLegacy", to: "QuoteService#quote" },
      contract: CONTRACT,
      budgetTokens: 8000,
    });
    assert.match(text, /Old API: QuoteBatchJob#quoteLegacy/);
    assert.match(text, /New API: QuoteService#quote/);
    const examples = pkg.package.blocks.filter((b) => b.kind === "example");
    assert.ok(examples.length >= 1 && examples.length <= 2, `examples: ${examples.length}`);
    assert.ok(examples.every((e) => e.evidence && e.evidence.path !== BATCH), "examples come from outside the files being changed");
    assert.match(text, /do_copy: how QuoteService#quote is called at line \d+/);
    assert.match(text, /do_not_copy: /);
  });

  test("under a budget too small for every call site, a test that exercises the change is kept before further call sites", async () => {
    let squeezed = 0;
    for (let budget = 1400; budget <= 6000; budget += 200) {
      const env = await h.call("build_context_package", { purpose: "editing", goal: "Reject quotes for more than 1000 units in QuoteService#quote", symbols: ["QuoteService#quote"], contract: CONTRACT, budgetTokens: budget });
      if (!env.ok) continue;
      const pkg = env.data as unknown as { package: { blocks: { kind: string }[]; omitted: { kind: string }[] } };
      const sitesShown = pkg.package.blocks.filter((b) => b.kind === "call_site").length;
      if (!pkg.package.omitted.some((o) => o.kind === "call_site") || sitesShown < 3) continue;
      squeezed += 1;
      assert.ok(pkg.package.blocks.some((b) => b.kind === "test_file"), `budget ${budget}: call sites cut, and no test kept`);
    }
    assert.ok(squeezed > 0, "some budget cuts call sites after the first three");
  });

  test("a candidate whose path holds a secret is counted as rendered, redacted, whichever form the budget picks", async () => {
    const KEY_FILE = "docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt";
    let pointed = 0;
    for (let budget = 1200; budget <= 2400; budget += 40) {
      const env = await h.call("build_context_package", { purpose: "planning", goal: "Tighten quote validation", candidatePaths: ["mvnw", KEY_FILE], contract: CONTRACT, budgetTokens: budget, target: "openai" });
      assert.equal(env.ok, true, JSON.stringify(env.data));
      const pkg = env.data as unknown as Pkg;
      const texts = textsOf(pkg.rendered);
      assert.equal(pkg.package.budget.usedTokens, recount(texts), `budget ${budget}`);
      if (texts.join("\n").includes('get_file_slice {"path":"docs/keys/[REDACTED].txt"')) pointed += 1;
    }
    assert.ok(pointed > 0, "some budget shows the secret-named file as a pointer");
  });

  test("property: with return: rendered the whole answer the client reads stays within budgetTokens, or says what it needs", async () => {
    const files = (await h.store.listFiles(h.index.indexId)).filter((f) => f.skipReason === null && !f.isBinary).map((f) => f.path);
    const rand = prng(20261202);
    let fitted = 0;
    for (let i = 0; i < 16; i++) {
      const budget = Math.round(300 * Math.pow(100, rand()));
      const picks = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 4) }, () => files[Math.floor(rand() * files.length)]!))];
      const env = await h.call("build_context_package", { purpose: i % 2 ? "planning" : "editing", goal: "Tighten quote validation", candidatePaths: picks, contract: CONTRACT, budgetTokens: budget, return: "rendered" });
      const { isError: _e, ...answer } = env;
      if (!env.ok) {
        assert.match((env.data.error as { hint: string }).hint, /budgetTokens/, `case ${i}`);
        continue;
      }
      fitted += 1;
      assert.ok(count(JSON.stringify(answer)) <= budget, `case ${i}: ${count(JSON.stringify(answer))} tokens > budget ${budget}`);
    }
    assert.ok(fitted >= 12, `${fitted} of 16 fitted`);
  });

  test("property: any budget from 200 to 32,000 and any candidate set stays within budget, keeps policy, and lists its evidence", async () => {
    const files = (await h.store.listFiles(h.index.indexId)).filter((f) => f.skipReason === null && !f.isBinary).map((f) => f.path);
    const rand = prng(20261129);
    const targets = ["openai", "anthropic", "gemini", "local"] as const;
    const purposes = ["planning", "editing"] as const;
    for (let i = 0; i < 40; i++) {
      const budget = Math.round(200 * Math.pow(160, rand()));
      const picks = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 6) }, () => files[Math.floor(rand() * files.length)]!))];
      const target = targets[i % targets.length]!;
      const args = {
        purpose: purposes[Math.floor(rand() * purposes.length)]!,
        goal: "Tighten quote validation",
        candidatePaths: picks,
        contract: CONTRACT,
        budgetTokens: budget,
        target,
      };
      const env = await h.call("build_context_package", args);
      assert.equal(env.ok, true, `case ${i} ${JSON.stringify(args)}: ${JSON.stringify(env.data)}`);
      const pkg = env.data as unknown as Pkg;
      const texts = textsOf(pkg.rendered);
      const tokens = recount(texts);
      assert.ok(tokens <= budget, `case ${i}: ${tokens} tokens > budget ${budget}`);
      assert.equal(pkg.package.budget.usedTokens, tokens);
      const all = texts.join("\n");
      // Policy is never dropped: every platform rule and every forbidden path of the contract is there.
      for (const r of PLATFORM_SAFETY_RULES) assert.ok(all.includes(r.id.replace(/^platform:/, "")), `case ${i}: ${r.id} missing`);
      for (const glob of CONTRACT.forbiddenPaths) assert.ok(all.includes(glob), `case ${i}: ${glob} missing`);
      // Every evidence id printed is in the manifest, with the file's hash as the index (and the disk) has it.
      const ids = [...all.matchAll(/\[(E\d+)\] (\S+):(\d+)-(\d+) \([a-z_]+, (sha256:[0-9a-f]{12})/g)];
      assert.equal(ids.length, pkg.manifest.evidence.length, `case ${i}: ids ${ids.length} vs manifest ${pkg.manifest.evidence.length}`);
      for (const [, id, path, start, end, hashPrefix] of ids) {
        const m = pkg.manifest.evidence.find((e) => e.id === id);
        assert.ok(m, `case ${i}: ${id} not in the manifest`);
        assert.equal(m.path, path);
        assert.equal(m.startLine, Number(start));
        assert.equal(m.endLine, Number(end));
        assert.ok(m.hash.startsWith(hashPrefix!));
        // A path holding a secret is shown redacted (docs/keys/[REDACTED].txt): its file is the one it redacts from.
        const onDisk = files.find((f) => redactText(f).text === path);
        assert.ok(onDisk, `case ${i}: ${path} is no indexed path`);
        assert.equal(m.hash, sha256(readFileSync(join(h.repo.root, onDisk))), `case ${i}: ${path}`);
      }
    }
  });

  test("failure drill: a forbidden path of the contract is in the rendered context, and a judging package lists the diff's violations", async () => {
    const editing = await build({ purpose: "editing", goal: "Add a discount field to quotes", candidatePaths: [SERVICE], contract: CONTRACT, budgetTokens: 200 });
    assert.ok(editing.text.includes("api/openapi/**"), editing.text);
    const diff = [
      "diff --git a/docs/openapi.yaml b/docs/openapi.yaml",
      "--- a/docs/openapi.yaml",
      "+++ b/docs/openapi.yaml",
      "@@ -3,3 +3,4 @@ info:",
      "   title: Pricing API",
      "   version: 1.0.0",
      "+  x-discount: true",
      " paths:",
      "diff --git a/api/openapi/quotes.yaml b/api/openapi/quotes.yaml",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/api/openapi/quotes.yaml",
      "@@ -0,0 +1,2 @@",
      "+openapi: 3.0.3",
      "+paths: {}",
      `diff --git a/${SERVICE} b/${SERVICE}`,
      `--- a/${SERVICE}`,
      `+++ b/${SERVICE}`,
      "@@ -10,3 +10,4 @@ public class QuoteService {",
      "     public BigDecimal quote(String sku, int quantity) {",
      "+        // discount",
      "         if (quantity <= 0) {",
      "             throw new IllegalArgumentException(\"quantity must be positive\");",
      "",
    ].join("\n");
    const { pkg, text } = await build({ purpose: "judging", goal: "Add a discount field to quotes", diff, contract: CONTRACT, budgetTokens: 3000 });
    const forbidden = pkg.package.diffReview!.violations.filter((v) => v.kind === "forbidden_path").map((v) => v.path);
    assert.deepEqual(forbidden.sort(), ["api/openapi/quotes.yaml", "docs/openapi.yaml"]);
    assert.match(text, /policy violation/);
    assert.match(text, /api\/openapi\/quotes\.yaml/);
    assert.match(text, /judge_verdict_json/);
    assert.ok(pkg.package.blocks.some((b) => b.kind === "policy_violations" && b.role === "system"));
  });

  test("a verification_repair package summarizes the failure and shows the failing line from the index", async () => {
    const diff = [`diff --git a/${SERVICE} b/${SERVICE}`, `--- a/${SERVICE}`, `+++ b/${SERVICE}`, "@@ -11,1 +11,1 @@", "-        if (quantity <= 0) {", "+        if (quantity < 0) {", ""].join("\n");
    const log = [
      "$ ./mvnw -pl services/pricing test",
      "[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0",
      "[ERROR] com.acme.pricing.QuoteServiceTest.rejectsZero:14 expected exception",
      "java.lang.AssertionError: expected exception",
      "\tat com.acme.pricing.QuoteService.quote(QuoteService.java:12)",
      "\tat com.acme.pricing.QuoteServiceTest.rejectsZero(QuoteServiceTest.java:14)",
      "[ERROR] BUILD FAILURE",
    ].join("\n");
    const { pkg, text } = await build({ purpose: "verification_repair", goal: "Keep rejecting non-positive quantities", diff, verifierOutput: log, contract: CONTRACT, budgetTokens: 4000 });
    const kinds = pkg.package.blocks.map((b) => b.kind);
    assert.ok(kinds.includes("failure_summary"));
    assert.ok(pkg.package.blocks.some((b) => b.kind === "failure_location" && b.evidence?.path === SERVICE), kinds.join(","));
    assert.match(text, /smallest_repair/);
    assert.match(text, /12\| /);
  });

  test("planning and pr_summary select different content from editing", async () => {
    const planning = await build({ purpose: "planning", goal: "Cache quotes in QuoteService", candidatePaths: [SERVICE, FORMAT, LIMITER], contract: CONTRACT, budgetTokens: 5000 });
    const kinds = new Set(planning.pkg.package.blocks.map((b) => b.kind));
    assert.ok(kinds.has("repo_map") && kinds.has("ownership"), [...kinds].join(","));
    assert.ok(!kinds.has("call_site") && !kinds.has("example"));
    assert.match(planning.text, /plan_json/);
    // Planning shows outlines (signatures with line numbers), not bodies.
    assert.match(planning.text, /10\| {5}public BigDecimal quote\(String sku, int quantity\) \{/);
    assert.doesNotMatch(planning.text, /return unitPrice\(sku\)\.multiply/);
    const diff = [`diff --git a/${FORMAT} b/${FORMAT}`, `--- a/${FORMAT}`, `+++ b/${FORMAT}`, "@@ -1,1 +1,2 @@", "+// money", " export", ""].join("\n");
    const pr = await build({ purpose: "pr_summary", goal: "Document formatting", diff, contract: CONTRACT, budgetTokens: 3000 });
    assert.match(pr.text, /pr_summary_markdown/);
    assert.ok(pr.pkg.package.blocks.some((b) => b.kind === "diff_summary"));
  });

  test("the four renderers carry the same blocks in their own shapes", async () => {
    const args = { purpose: "editing", goal: "Validate quote expiry", symbols: ["QuoteService#isQuoteExpired"], contract: CONTRACT, budgetTokens: 3000 };
    const shapes: Record<string, Record<string, unknown>> = {};
    const ids: string[][] = [];
    for (const target of ["openai", "anthropic", "gemini", "local"]) {
      const { pkg } = await build({ ...args, target });
      shapes[target] = pkg.rendered;
      ids.push(pkg.package.blocks.map((b) => b.kind));
    }
    const openai = shapes.openai as { messages: { role: string; content: string }[] };
    assert.deepEqual(openai.messages.map((m) => m.role), ["system", "user"]);
    const anthropic = shapes.anthropic as { system: string; messages: { role: string; content: { type: string; text: string }[] }[] };
    assert.equal(typeof anthropic.system, "string");
    assert.equal(anthropic.messages[0]!.content[0]!.type, "text");
    const gemini = shapes.gemini as { systemInstruction: { parts: { text: string }[] }; contents: { role: string }[] };
    assert.equal(gemini.contents[0]!.role, "user");
    assert.equal(typeof (shapes.local as { prompt: string }).prompt, "string");
    const sameId = (t: string) => t.replace(/ctx_[0-9a-f-]{36}/g, "ctx_ID");
    assert.equal(sameId(openai.messages[0]!.content), sameId(anthropic.system));
    assert.equal(sameId(anthropic.system), sameId(gemini.systemInstruction.parts[0]!.text));
    for (const k of ids) assert.deepEqual(k, ids[0]);
  });

  test("repository text that reads like instructions is wrapped and labelled untrusted, and the envelope warns", async () => {
    const { env, pkg, text } = await build({ purpose: "editing", goal: "Document the quote API", candidatePaths: [INTEGRATION_DOC], contract: CONTRACT, budgetTokens: 3000 });
    const doc = pkg.package.blocks.find((b) => b.evidence?.path === INTEGRATION_DOC);
    assert.equal(doc?.trustLevel, "repo_documentation_untrusted_instruction");
    assert.ok(env.warnings.some((w) => w.code === "contains_instruction_like_text"));
    assert.ok(env.evidence.some((e) => e.path === INTEGRATION_DOC && e.trustLevel === "repo_documentation_untrusted_instruction"));
    const i = text.indexOf("Ignore all previous instructions");
    assert.ok(i > 0);
    assert.ok(text.lastIndexOf("<untrusted-content", i) > text.lastIndexOf("</untrusted-content", i), "the passage sits inside the markers");
  });

  test("the quality rubric rejects, with reasons, what Part 032 §25 names", async () => {
    const bare = await build({ purpose: "editing", goal: "Change quotes", candidatePaths: [SERVICE], budgetTokens: 2000 });
    const codes = bare.pkg.quality.reasons.map((r) => r.code);
    assert.equal(bare.pkg.quality.accepted, false);
    assert.ok(codes.includes("no_acceptance_criteria") && codes.includes("no_path_constraints"), codes.join(","));
    assert.ok(bare.env.warnings.some((w) => w.code === "context_quality_rejected"));
    const base = {
      purpose: "editing" as const,
      task: { acceptanceCriteria: ["tests pass"] },
      constraints: { allowedPaths: ["src/**"], forbiddenPaths: [] },
      outputContract: { format: "unified_diff" as const, schema: null, requirements: ["x"] },
      outcome: "ok" as const,
    };
    const evidence = { id: "E1", path: SERVICE, startLine: 1, endLine: 3, hash: "sha256:x", spanHash: "sha256:y", kind: "file_excerpt" as const };
    const good = [
      { kind: "platform_policy" as const, role: "system" as const, priority: "safety_policy" as const },
      { kind: "repo_instruction" as const, role: "user" as const, priority: "repository_instructions" as const },
      { kind: "file_excerpt" as const, role: "user" as const, priority: "code_evidence" as const, evidence },
    ];
    assert.deepEqual(judgePackage({ ...base, blocks: good }), { accepted: true, reasons: [] });
    const promoted = [{ kind: "repo_instruction" as const, role: "system" as const, priority: "safety_policy" as const }, ...good];
    assert.deepEqual(judgePackage({ ...base, blocks: promoted }).reasons.map((r) => r.code), ["repository_instructions_outrank_policy"]);
    const unsourced = [good[0]!, { ...good[2]!, evidence: { ...evidence, path: "" } }];
    assert.deepEqual(judgePackage({ ...base, blocks: unsourced }).reasons.map((r) => r.code), ["evidence_without_source"]);
    const noSchema = judgePackage({ ...base, blocks: good, outputContract: { format: "json", schema: null, requirements: ["x"] } });
    assert.deepEqual(noSchema.reasons.map((r) => r.code), ["output_contract_unverifiable"]);
  });

  test("bad input is a categorized error, never a partial package", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ purpose: "editing", budgetTokens: 1000 }, "invalid_input"],
      [{ purpose: "judging", goal: "x", budgetTokens: 1000 }, "invalid_input"],
      [{ purpose: "editing", goal: "x", budgetTokens: 100 }, "invalid_input"],
      // Policy is never dropped: forbidden paths that alone exceed the budget make the budget too small.
      [{ purpose: "editing", goal: "x", contract: { forbiddenPaths: Array.from({ length: 40 }, (_, i) => `generated/module-${i}/**`) }, budgetTokens: 200 }, "invalid_input"],
      [{ purpose: "editing", goal: "x", candidatePaths: ["../outside-secret.txt"], budgetTokens: 1000 }, "query_rejected"],
      [{ purpose: "nonsense", goal: "x", budgetTokens: 1000 }, "invalid_input"],
    ];
    for (const [args, category] of cases) {
      const env = await h.call("build_context_package", args);
      assert.equal(env.ok, false, JSON.stringify(args).slice(0, 200));
      assert.equal((env.data.error as { category: string }).category, category, JSON.stringify(env.data.error));
    }
  });

  test("a package's manifest goes stale after a commit and after an uncommitted edit, and a rebuilt one is fresh after reindexing", async () => {
    const { pkg } = await build({ purpose: "editing", goal: "Validate quote expiry", symbols: ["QuoteService#isQuoteExpired"], contract: CONTRACT, budgetTokens: 3000 });
    const check = async (manifest: ContextManifest) => {
      const env = await h.call("check_context_freshness", { manifest });
      assert.equal(env.ok, true, JSON.stringify(env.data));
      return (env.data as { contextFreshness: { fresh: boolean; stale: { kind: string; path?: string }[] } }).contextFreshness;
    };
    assert.equal((await check(pkg.manifest)).fresh, true);
    const original = readFileSync(join(h.repo.root, SERVICE), "utf8");
    writeFileSync(join(h.repo.root, SERVICE), original.replace("QUOTE_TTL_SECONDS = 900", "QUOTE_TTL_SECONDS = 600"));
    const edited = await check(pkg.manifest);
    assert.equal(edited.fresh, false);
    assert.ok(edited.stale.some((s) => s.kind === "file_changed" && s.path === SERVICE), JSON.stringify(edited.stale));
    git(h.repo.root, ["commit", "-q", "-am", "Shorter quote TTL"]);
    const committed = await check(pkg.manifest);
    assert.ok(committed.stale.some((s) => s.kind === "commit_moved"), JSON.stringify(committed.stale));
    await updateIndex({ root: h.repo.root, store: h.store });
    const { pkg: rebuilt } = await build({ purpose: "editing", goal: "Validate quote expiry", symbols: ["QuoteService#isQuoteExpired"], contract: CONTRACT, budgetTokens: 3000 });
    assert.notEqual(rebuilt.manifest.baseCommit, pkg.manifest.baseCommit);
    assert.equal((await check(rebuilt.manifest)).fresh, true);
  });

  test("prompts build_migration_context and build_review_context embed a package; arguments complete from the index", async () => {
    const listed = await h.client.listPrompts();
    assert.deepEqual(listed.prompts.map((p) => p.name).sort(), ["build_migration_context", "build_review_context"]);
    const migration = await h.client.getPrompt({
      name: "build_migration_context",
      arguments: { objective: "Stop using quoteLegacy", from: "QuoteBatchJob#quoteLegacy", to: "QuoteService#quote", acceptanceCriteria: "QuoteBatchJobTest passes", allowedPaths: "services/pricing/src/**" },
    });
    assert.equal(migration.messages.length, 2);
    const workflow = (migration.messages[0]!.content as { text: string }).text;
    assert.match(workflow, /Do not edit files until this evidence is collected/);
    assert.match((migration.messages[1]!.content as { text: string }).text, /Old API: QuoteBatchJob#quoteLegacy/);
    const review = await h.client.getPrompt({ name: "build_review_context", arguments: { goal: "Review", diff: `diff --git a/${SERVICE} b/${SERVICE}\n--- a/${SERVICE}\n+++ b/${SERVICE}\n@@ -1,1 +1,1 @@\n-package com.acme.pricing;\n+package com.acme.pricing2;\n`, forbiddenPaths: "services/pricing/src/main/java/**" } });
    assert.match((review.messages[1]!.content as { text: string }).text, /forbidden_path/);
    const complete = async (name: string, argument: string, value: string) =>
      (await h.client.complete({ ref: { type: "ref/prompt", name }, argument: { name: argument, value } })).completion.values;
    assert.ok((await complete("build_migration_context", "from", "QuoteSer")).includes("QuoteService"));
    assert.ok((await complete("build_migration_context", "to", "QuoteService#q")).includes("QuoteService#quote"));
    const paths = await complete("build_migration_context", "paths", "services/pri");
    assert.deepEqual(paths, ["services/pricing-api/", "services/pricing/"]);
    const keys = await complete("build_migration_context", "paths", "docs/keys/");
    assert.deepEqual(keys, [], "a path named after a secret is never offered");
    await assert.rejects(h.client.getPrompt({ name: "build_migration_context", arguments: { objective: "x" } }));
  });

  test("candidates not in the index and unknown symbols are stated, not guessed", async () => {
    const { pkg } = await build({ purpose: "editing", goal: "x", candidatePaths: [SERVICE, "services/pricing/src/main/java/com/acme/pricing/Missing.java"], symbols: ["NoSuchThing#nope"], contract: CONTRACT, budgetTokens: 2000 });
    assert.deepEqual(pkg.package.coverage.notIndexed, ["services/pricing/src/main/java/com/acme/pricing/Missing.java"]);
    assert.deepEqual(pkg.package.coverage.symbolsNotFound, ["NoSuchThing#nope"]);
  });
});
