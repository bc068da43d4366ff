import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { openHarness, type Harness } from "./helpers/harness.js";

const SERVICE = "services/pricing/src/main/java/com/acme/pricing/QuoteService.java";
const CONTROLLER = "services/pricing/src/main/java/com/acme/pricing/QuoteController.java";
const BATCH = "services/pricing/src/main/java/com/acme/pricing/QuoteBatchJob.java";

type Hit = { path: string; startLine: number; matchType: string; confidence: string; kind: string; enclosing?: string; qualifiedName?: string; trustLevel?: string; snippet?: string };

describe("find_symbol on the golden repository", () => {
  let h: Harness;
  before(async () => {
    h = await openHarness();
  });
  after(async () => h.close());

  test("definition of a qualified Java method", async () => {
    const env = await h.call("find_symbol", { symbol: "QuoteService#quote", intent: "definition" });
    assert.equal(env.ok, true);
    const hits = env.data.hits as Hit[];
    assert.deepEqual(
      hits.map((x) => [x.path, x.startLine, x.matchType, x.qualifiedName, x.trustLevel]),
      [[SERVICE, 10, "symbol_definition", "com.acme.pricing.QuoteService#quote", "source_code"]],
    );
    assert.equal(env.evidence[0]!.retrieval, "symbol");
    assert.equal(env.evidence[0]!.endLine, 15);
    assert.equal((hits[0] as Hit & { module: string }).module, "pricing", "the innermost module from the manifests");
  });

  test("every call site of QuoteService#quote with its enclosing method; similar names are not call sites", async () => {
    const env = await h.call("find_symbol", { symbol: "QuoteService#quote", intent: "call_sites" });
    const hits = env.data.hits as Hit[];
    const syntactic = hits.filter((x) => x.matchType === "syntactic_reference");
    assert.deepEqual(
      syntactic.map((x) => [x.path, x.startLine, x.enclosing]),
      [
        [BATCH, 17, "com.acme.pricing.QuoteBatchJob#repriceAll"],
        [BATCH, 24, "com.acme.pricing.QuoteBatchJob#quoteLegacy"],
        ["services/pricing/src/main/java/com/acme/pricing/QuoteCache.java", 23, "com.acme.pricing.QuoteCache#cachedQuote"],
        [CONTROLLER, 14, "com.acme.pricing.QuoteController#getQuote"],
        ["services/pricing/src/main/java/com/acme/pricing/http/QuoteRoutes.java", 17, "com.acme.pricing.http.QuoteRoutes#create"],
      ],
    );
    assert.ok(syntactic.every((x) => x.kind === "call" && x.confidence === "high"));
    assert.ok(!hits.some((x) => x.path === BATCH && x.startLine === 28), "quoteLegacy(...) is not a call of quote");
    assert.match(syntactic[0]!.snippet!, /quoteService\.quote\(sku, 1\)/);
    assert.ok(env.evidence.every((e) => e.retrieval === "syntactic" || e.retrieval === "lexical"));
  });

  test("an ambiguous simple name lists its candidates", async () => {
    const env = await h.call("find_symbol", { symbol: "getQuote", intent: "definition" });
    assert.equal(env.ok, true);
    const stats = env.data.stats as { ambiguous: boolean };
    assert.equal(stats.ambiguous, true);
    const candidates = env.data.candidates as { qualifiedName: string; path: string }[];
    assert.deepEqual(candidates.map((c) => c.qualifiedName).sort(), ["com.acme.pricing.QuoteController#getQuote", "getQuote"]);
    assert.ok(env.warnings.some((w) => w.code === "ambiguous_symbol"));
  });

  test("references include mentions in unparsed text, marked low confidence", async () => {
    const env = await h.call("find_symbol", { symbol: "summarize_quotes", intent: "references" });
    const hits = env.data.hits as Hit[];
    assert.ok(hits.some((x) => x.path === "tools/test_pricing_report.py" && x.matchType === "syntactic_reference" && x.kind === "call"));
    assert.ok(hits.some((x) => x.path === "tools/test_pricing_report.py" && x.kind === "import"));
  });

  test("unknown symbols and bad input", async () => {
    const none = await h.call("find_symbol", { symbol: "noSuchThingAnywhere", intent: "references" });
    assert.equal(none.ok, true);
    assert.deepEqual(none.data.hits, []);
    assert.ok(none.warnings.some((w) => w.code === "no_definition_found"));
    const bad = await h.call("find_symbol", { symbol: "x", intent: "everything" });
    assert.equal((bad.data.error as { category: string }).category, "invalid_input");
  });
});
