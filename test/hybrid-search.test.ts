import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { HYBRID_WEIGHTS } from "../src/query/ranking.js";
import { openHarness, type Harness } from "./helpers/harness.js";

const SERVICE = "services/pricing/src/main/java/com/acme/pricing/QuoteService.java";
const SERVICE_TEST = "services/pricing/src/test/java/com/acme/pricing/QuoteServiceTest.java";
const CONTROLLER = "services/pricing/src/main/java/com/acme/pricing/QuoteController.java";
const LIMITER = "go/ratelimit/limiter.go";

interface Group {
  path: string;
  score: number;
  module?: string | null;
  reasons: { part: string; value: number; why: string }[];
  hits: { startLine: number; endLine: number; matchType: string; snippet: string; symbol?: { qualifiedName: string } }[];
}

describe("search_code ranks questions, issue text and stack traces (hybrid ranking)", () => {
  let h: Harness;
  const search = async (query: string, extra: Record<string, unknown> = {}) => {
    const env = await h.call("search_code", { query, maxResults: 5, ...extra });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    return { env, groups: env.data.results as Group[], stats: env.data.stats as Record<string, unknown> };
  };

  before(async () => {
    h = await openHarness();
  });
  after(async () => {
    await h.close();
  });

  test("a paraphrased question finds the method that does it, with its span and the reasons for its score", async () => {
    const { groups, stats } = await search("where do we validate quote expiration");
    assert.equal(stats.ranking, "natural_language");
    const top = groups[0]!;
    assert.equal(top.path, SERVICE);
    assert.equal(top.hits[0]!.symbol?.qualifiedName, "com.acme.pricing.QuoteService#isQuoteExpired");
    assert.match(top.hits[0]!.snippet, /isQuoteExpired/);
    assert.ok(top.reasons.some((r) => r.part === "bm25" && r.value > 0 && r.why.length > 0));
    assert.ok(top.reasons.every((r) => typeof r.value === "number" && typeof r.why === "string"));
    assert.equal(top.module, "pricing");
  });

  test("a test file does not outrank the source file it tests for a behaviour question", async () => {
    const { groups } = await search("detect that an issued quote has expired");
    const paths = groups.map((g) => g.path);
    assert.ok(paths.indexOf(SERVICE) >= 0 && paths.indexOf(SERVICE) < paths.indexOf(SERVICE_TEST), paths.join(", "));
    const test = groups.find((g) => g.path === SERVICE_TEST)!;
    assert.ok(test.reasons.some((r) => r.part === "prior" && r.value === HYBRID_WEIGHTS.testPrior));
    // Asking about tests lifts the penalty.
    const { groups: aboutTests } = await search("which unit test checks that an issued quote has expired");
    assert.ok(!aboutTests.find((g) => g.path === SERVICE_TEST)!.reasons.some((r) => r.part === "prior"));
  });

  test("a stack trace jumps to the innermost frame's span", async () => {
    const trace = [
      "java.lang.IllegalArgumentException: quantity must be positive",
      "\tat com.acme.pricing.QuoteService.quote(QuoteService.java:12)",
      "\tat com.acme.pricing.QuoteController.getQuote(QuoteController.java:14)",
    ].join("\n");
    const { groups } = await search(trace);
    assert.equal(groups[0]!.path, SERVICE);
    assert.equal(groups[0]!.hits[0]!.matchType, "stack_frame");
    assert.ok(groups[0]!.hits[0]!.startLine <= 12 && groups[0]!.hits[0]!.endLine >= 12, "the span holds the frame's line");
    assert.equal(groups[0]!.hits[0]!.symbol?.qualifiedName, "com.acme.pricing.QuoteService#quote");
    const controller = groups.find((g) => g.path === CONTROLLER)!;
    assert.ok(controller.hits[0]!.startLine <= 14 && controller.hits[0]!.endLine >= 14);
    assert.ok(controller.reasons.find((r) => r.part === "stack_frame")!.value < groups[0]!.reasons.find((r) => r.part === "stack_frame")!.value);
  });

  test("a path named in an issue text jumps to that file", async () => {
    const { groups } = await search("The limiter in go/ratelimit/limiter.go lets a burst through after a reset");
    assert.equal(groups[0]!.path, LIMITER);
    assert.ok(groups[0]!.reasons.some((r) => r.part === "path_mention"));
  });

  test("short literals keep exact search; abstention is off by default and says what decided when on", async () => {
    const { stats } = await search("isQuoteExpired");
    assert.notEqual(stats.ranking, "natural_language");
    const unrelated = "kubernetes helm chart ingress annotations for grafana dashboards";
    const off = await search(unrelated);
    assert.equal((off.stats.abstention as { enabled: boolean }).enabled, false);
    const on = await search(unrelated, { abstain: true });
    const a = on.stats.abstention as { enabled: boolean; noLocalEvidence: boolean; score: number; threshold: number };
    assert.equal(a.enabled, true);
    assert.equal(a.noLocalEvidence, true, JSON.stringify(a));
    assert.ok(a.score < a.threshold);
    assert.deepEqual(on.groups, []);
    const related = await search("where do we validate quote expiration", { abstain: true });
    assert.equal((related.stats.abstention as { noLocalEvidence: boolean }).noLocalEvidence, false);
  });

  test("a whole issue text is ranked, never rejected; past 64 KiB it is cut with a warning", async () => {
    const issue = `Quotes that expired are still accepted at checkout.\n\n${"Environment: Java 17, Linux x86_64, pricing service build 4.2.1\n".repeat(400)}`;
    assert.ok(issue.length > 20_000);
    const { groups, env } = await search(issue);
    assert.ok(groups.length > 0);
    assert.ok(!env.warnings.some((w) => w.code === "query_trimmed"));
    const huge = await search(`where do we validate quote expiration\n${"x ".repeat(40_000)}`);
    assert.equal(huge.groups[0]!.path, SERVICE);
    assert.ok(huge.env.warnings.some((w) => w.code === "query_trimmed" && /first 65536/.test(w.message)));
  });

  test("a literal or regex longer than 4096 characters is refused with a hint, not cut", async () => {
    for (const extra of [{ mode: "lexical" }, { regex: true }]) {
      const env = await h.call("search_code", { query: "a".repeat(5000), ...extra });
      assert.equal(env.ok, false);
      assert.equal((env.data.error as { category: string }).category, "query_rejected");
    }
    // In hybrid mode the same text is ranked instead.
    const env = await h.call("search_code", { query: "a".repeat(5000) });
    assert.equal(env.ok, true, JSON.stringify(env.data));
  });

  test("query terms are chosen by how few files hold them, not by their length", async () => {
    // Forty-five long words no file holds, and one short word only the Go limiter holds: by length the short word
    // would be left out of the first stage; by rarity the absent words are dropped and it decides.
    const absent = Array.from({ length: 45 }, (_, i) => `photosynthesis${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    const { groups } = await search(`${absent.join(" ")} mutex`);
    assert.equal(groups[0]?.path, LIMITER, groups.map((g) => g.path).join(", "));
  });

  test("an issue text that mentions tests in passing keeps tests below the code they test", async () => {
    const issue = [
      "Expired quotes are still accepted: an issued quote past its expiry date is priced as if it were valid.",
      "All the existing tests pass, and an assert in my own code shows the quote is expired before checkout.",
      "Steps: issue a quote, wait past its expiry, request checkout. Expected: rejected. Actual: accepted.",
    ].join("\n");
    const { groups } = await search(issue);
    const test = groups.find((g) => g.path === SERVICE_TEST);
    if (test) assert.ok(test.reasons.some((r) => r.part === "prior" && r.value === HYBRID_WEIGHTS.testPrior), JSON.stringify(test.reasons));
    const paths = groups.map((g) => g.path);
    assert.ok(paths.indexOf(SERVICE) >= 0 && (test === undefined || paths.indexOf(SERVICE) < paths.indexOf(SERVICE_TEST)), paths.join(", "));
  });

  test("every hit is evidence with its retrieval method", async () => {
    const { env } = await search("rate limiter allows too many requests");
    assert.ok(env.evidence.length > 0);
    for (const e of env.evidence) {
      assert.ok(["lexical", "symbol", "syntactic", "semantic"].includes(e.retrieval));
      assert.match(e.contentHash, /^sha256:/);
    }
  });
});
