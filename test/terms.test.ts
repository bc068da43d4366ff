import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildIndex, type IndexResult } from "../src/indexer/pipeline.js";
import { MAX_BODY_TERMS, fileTerms, queryTerms, splitIdentifier, termCount } from "../src/core/terms.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { FieldValues, RankQuery } from "../src/store/store.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";

const PKG = "services/pricing/src/main/java/com/acme/pricing";
const SERVICE = `${PKG}/QuoteService.java`;
const CONTROLLER = `${PKG}/QuoteController.java`;
/** Defined names above the words of a body, as a ranking would weigh them. */
const NAMES_FIRST: FieldValues = { path: 1, symbols: 3, body: 1 };

describe("identifier splitting", () => {
  const cases: [string, string[]][] = [
    ["parseHTTPRequest", ["parse", "http", "request"]],
    ["QuoteService", ["quote", "service"]],
    ["isQuoteExpired", ["is", "quote", "expired"]],
    ["IOError", ["io", "error"]],
    ["max_queue_size", ["max", "queue", "size"]],
    ["MAX_QUEUE_SIZE", ["max", "queue", "size"]],
    ["max-queue-size", ["max", "queue", "size"]],
    ["__init__", ["init"]],
    ["v2", ["v2"]],
    ["getV2Config", ["get", "v2", "config"]],
    ["utf8ToUtf16", ["utf8", "to", "utf16"]],
    ["x86_64", ["x86", "64"]],
    ["i2c_transfer", ["i2c", "transfer"]],
    ["lowercase", ["lowercase"]],
  ];
  for (const [id, pieces] of cases) {
    test(`${id} → ${pieces.join(" ")}`, () => assert.deepEqual(splitIdentifier(id), pieces));
  }
});

describe("file and query terms", () => {
  test("fields hold unique lowercased terms: whole names and their words, no stopwords, no one-letter words", () => {
    const t = fileTerms("src/http/QuoteService.java", "/** Where the quote is checked. */\nboolean isQuoteExpired(Quote q) { return q.isQuoteExpired(); }\n", [
      "isQuoteExpired",
      "QuoteService",
      "isQuoteExpired",
    ]);
    assert.deepEqual(t.path.split(" "), ["src", "http", "quoteservice", "quote", "service", "java"]);
    assert.deepEqual(t.symbols.split(" "), ["quoteservice", "quote", "service", "isquoteexpired", "expired"]);
    assert.deepEqual(t.body.split(" "), ["quote", "checked", "boolean", "isquoteexpired", "expired", "return"]);
  });

  test("the same names in another order give the same symbol terms", () => {
    assert.equal(fileTerms("a.ts", "", ["b", "zeta", "Alpha"]).symbols, fileTerms("a.ts", "", ["Alpha", "zeta", "b"]).symbols);
  });

  test("the body is capped: the first MAX_BODY_TERMS distinct terms are kept", () => {
    const text = Array.from({ length: MAX_BODY_TERMS + 500 }, (_, i) => `name${i}`).join(" ");
    const body = fileTerms("big.txt", text, []).body;
    assert.equal(termCount(body), MAX_BODY_TERMS);
    assert.ok(body.startsWith("name0 name1 "));
    assert.ok(!body.includes(`name${MAX_BODY_TERMS}`));
  });

  test("a query is split like a file: stopwords go, identifiers split, first occurrence order", () => {
    assert.deepEqual(queryTerms("Where do we validate quote expiration?"), ["validate", "quote", "expiration"]);
    assert.deepEqual(queryTerms("why is isQuoteExpired wrong for quote_ttl_seconds"), [
      "isquoteexpired",
      "quote",
      "expired",
      "wrong",
      "quote_ttl_seconds",
      "ttl",
      "seconds",
    ]);
    assert.deepEqual(queryTerms("the of and"), []);
  });
});

describe("ranking terms of the golden repository", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: SqliteStore;
  let index: IndexResult;
  const rank = (text: string, extra: Partial<RankQuery> = {}) =>
    store.rankFiles(index.indexId, { terms: queryTerms(text).map((term) => ({ term, weight: 1 })), weights: NAMES_FIRST, limit: 10, ...extra });

  before(async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-terms-"));
    store = SqliteStore.open(join(dir, "index.db"));
    index = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20 });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("a paraphrase finds the file that defines the behaviour, with every term matched (stemmed: expiration ~ expired)", async () => {
    const hits = await rank("where do we validate quote expiration?");
    assert.equal(hits[0]!.path, SERVICE);
    assert.deepEqual(hits[0]!.matched, ["validate", "quote", "expiration"]);
    assert.ok(hits.every((h, i) => i === 0 || h.score <= hits[i - 1]!.score), "best first");
  });

  test("field weights decide: the file defining a name outranks one that only calls it, only when names weigh more", async () => {
    const test = `${PKG.replace("main", "test")}/QuoteServiceTest.java`;
    const position = (hits: { path: string }[], path: string) => hits.findIndex((h) => h.path === path);
    const byNames = await rank("isQuoteExpired");
    assert.ok(position(byNames, SERVICE) < position(byNames, test));
    const bodyOnly = await rank("isQuoteExpired", { weights: { path: 0, symbols: 0, body: 1 } });
    const score = (hits: { path: string; score: number }[], path: string) => hits.find((h) => h.path === path)!.score;
    assert.ok(score(byNames, SERVICE) > score(bodyOnly, SERVICE), "the symbol field adds to the defining file's score");
  });

  test("per-term weights scale each term's part of the score", async () => {
    const one = await rank("quote", { terms: [{ term: "quote", weight: 1 }] });
    const two = await rank("quote", { terms: [{ term: "quote", weight: 2 }] });
    assert.deepEqual(
      two.map((h) => [h.path, h.score]),
      one.map((h) => [h.path, h.score * 2]),
    );
  });

  test("secret-suspect files are left out unless asked for; a path prefix narrows", async () => {
    assert.deepEqual(await rank("battery staple"), []);
    assert.deepEqual(
      (await rank("battery staple", { includeSecretSuspect: true })).map((h) => h.path),
      [".env"],
    );
    const web = await rank("quote", { pathPrefix: "web/" });
    assert.ok(web.length > 0 && web.every((h) => h.path.startsWith("web/")));
  });

  test("no query syntax gets through: quotes, operators and stars are plain separators", async () => {
    for (const term of ['quote" OR "x', "NEAR(quote expired)", "quote*", "body : quote", "^quote", ""]) {
      await store.rankFiles(index.indexId, { terms: [{ term, weight: 1 }], weights: NAMES_FIRST, limit: 5 });
    }
    const hits = await store.rankFiles(index.indexId, { terms: [{ term: 'isQuoteExpired"', weight: 1 }], weights: NAMES_FIRST, limit: 5 });
    assert.equal(hits[0]!.path, SERVICE);
  });

  test("term statistics are the index's: files with terms, field means, files per term", async () => {
    const stats = await store.termStats(index.indexId, ["quote", "nosuchtermanywhere"]);
    assert.equal(stats.files, (await store.listFiles(index.indexId)).length);
    assert.ok(stats.avgLength.body > stats.avgLength.symbols && stats.avgLength.path > 0);
    assert.ok(stats.documentFrequency[0]! > 5);
    assert.equal(stats.documentFrequency[1], 0);
  });

  test("the reference graph: the controller calls into the service, both directions from either end", async () => {
    const ids = new Map((await rank("quote", { limit: 100 })).map((h) => [h.path, h.fileId]));
    const [controller, service] = [ids.get(CONTROLLER)!, ids.get(SERVICE)!];
    const out = await store.fileEdges(index.indexId, [controller], 50);
    const edge = out.find((e) => e.from === controller && e.to === service);
    assert.ok(edge && edge.weight >= 2, "QuoteService (type) and quote (call)");
    const into = await store.fileEdges(index.indexId, [service], 50);
    assert.ok(into.some((e) => e.from === controller && e.to === service));
    assert.ok(into.every((e, i) => i === 0 || e.weight <= into[i - 1]!.weight), "heaviest first");
    assert.equal((await store.fileEdges(index.indexId, [service], 1)).length, 1, "limit");
  });

  test("terms computed in symbol worker threads rank exactly as in-process ones", async () => {
    const other = SqliteStore.open(join(dir, "threaded.db"));
    try {
      const threaded = await buildIndex({ root: repo.root, store: other, maxFileBytes: 1 << 20, symbolWorkers: 2 });
      const query: RankQuery = { terms: queryTerms("validate quote expiration limiter").map((term) => ({ term, weight: 1 })), weights: NAMES_FIRST, limit: 20 };
      const view = (hits: { path: string; score: number; matched: string[] }[]) => hits.map((h) => [h.path, h.score, h.matched]);
      assert.deepEqual(view(await other.rankFiles(threaded.indexId, query)), view(await store.rankFiles(index.indexId, query)));
    } finally {
      await other.close();
    }
  });

  test("a rebuild that reuses unchanged files' symbols ranks exactly as the first build", async () => {
    const first = await rank("validate quote expiration cache");
    const second = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20 });
    assert.ok((second.stats.reusedFiles ?? 0) > 0);
    index = second;
    const again = await rank("validate quote expiration cache");
    assert.deepEqual(
      again.map((h) => [h.path, h.score, h.matched]),
      first.map((h) => [h.path, h.score, h.matched]),
    );
  });
});
