import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { appendFileSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, afterEach, before, describe, test } from "node:test";
import { IndexUpdater, buildIndex, updateIndex, type IndexResult } from "../src/indexer/pipeline.js";
import type { ExtractedReference } from "../src/core/symbols.js";
import { ExtractionPool } from "../src/indexer/symbols/pool.js";
import { queryTerms, termCount } from "../src/core/terms.js";
import { FIELD_BIT, RANK_FIELDS, normalizeRankTerms, scoreFiles, type TermPostings } from "../src/store/bm25f.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { CandidateQuery, FieldValues, FileEdge, FileInput, IndexDelta, IndexMeta, RankQuery, Store } from "../src/store/store.js";
import {
  COMMON_NAME_FILES,
  META,
  SEMANTIC_META,
  SOURCES,
  STATS,
  auditRecords,
  codeRow,
  fileRowOf,
  knowledge,
  skippedRow,
  textRow,
} from "./helpers/contract-data.js";
import { buildGoldenRepo, git, type BuiltRepo } from "./helpers/fixture.js";
import { STORE_KINDS, StoreTracker } from "./helpers/stores.js";

/**
 * The Store contract (src/store/store.ts), written once and run on every implementation: each method, each kind of
 * row, then the pipeline's in-place updates against full builds of the same tree. Checks of one implementation's
 * internals (SQLite's migration table, its per-build tables) stay in that implementation's own test file.
 */

const DELTA_BASE = { meta: { baseCommit: META.baseCommit, branch: "main", dirty: false }, knowledge: null, stats: STATS };
const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** SQLite's own consistency check, where the store has one. */
function assertSound(store: Store): void {
  if (store instanceof SqliteStore) assert.equal(store.integrityCheck(), "ok");
}

async function publish(store: Store, files: FileInput[], meta: Partial<IndexMeta> = {}, version = "idx-1"): Promise<string> {
  const id = await store.beginIndex({ ...META, ...meta });
  await store.addFiles(id, files);
  await store.publishIndex(id, version, STATS);
  return id;
}

/** Candidate paths from the index alone, checked against a full scan: the same files in the same (file id) order. */
async function candidates(store: Store, indexId: string, query: CandidateQuery): Promise<string[]> {
  const { files, more } = await store.candidateFiles(indexId, query, 100_000);
  assert.equal(more, false);
  const scanned: string[] = [];
  await store.scanCandidates(indexId, query, (c) => {
    scanned.push(c.file.path);
    return true;
  });
  const listed = files.map((f) => f.path);
  assert.deepEqual(scanned, listed, `scanCandidates visits what candidateFiles lists, in its order (${JSON.stringify(query)})`);
  const ids = files.map((f) => f.id);
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "candidates come in file id order");
  return listed;
}

/** Files whose text holds every fragment, case-insensitively: what candidates must include. */
function containing(files: FileInput[], fragments: string[]): string[] {
  return files.filter((f) => f.content !== null && fragments.every((x) => f.content!.toLowerCase().includes(x.toLowerCase()))).map((f) => f.path);
}

const rankQuery = (terms: string[], over: Partial<RankQuery> = {}): RankQuery => ({
  terms: terms.map((term) => ({ term, weight: 1 })),
  weights: { path: 1, symbols: 2, body: 1 },
  limit: 20,
  ...over,
});

/**
 * BM25F (src/store/bm25f.ts) over the terms the rows were written with, matched as whole tokens: the test data has
 * no two terms with one stem, so this is what a store's ranking must give, score for score.
 */
function expectedRanking(rows: FileInput[], ids: Map<string, number>, query: RankQuery): { path: string; score: number; matched: string[] }[] {
  const termed = new Map(rows.filter((r) => r.terms && r.skipReason === null).map((r) => [ids.get(r.path)!, r]));
  const lengths = (id: number): FieldValues | undefined => {
    const t = termed.get(id)?.terms;
    return t ? { path: termCount(t.path), symbols: termCount(t.symbols), body: termCount(t.body) } : undefined;
  };
  const sum: FieldValues = { path: 0, symbols: 0, body: 0 };
  for (const id of termed.keys()) for (const f of RANK_FIELDS) sum[f] += lengths(id)![f];
  const n = termed.size;
  const stats = { files: n, avgLength: { path: sum.path / n, symbols: sum.symbols / n, body: sum.body / n } };
  const postings: TermPostings[] = normalizeRankTerms(query.terms).map(({ term, weight }) => {
    const files = new Map<number, number>();
    for (const [id, r] of termed) {
      let bits = 0;
      for (const f of RANK_FIELDS) if (r.terms![f].split(" ").includes(term)) bits |= FIELD_BIT[f];
      if (bits !== 0) files.set(id, bits);
    }
    return { term, weight, files, documentFrequency: files.size };
  });
  return [...scoreFiles(postings, stats, query.weights, lengths)]
    .map(([id, s]) => ({ row: termed.get(id)!, score: s.score, matched: s.matched }))
    .filter(({ row }) => (query.includeSecretSuspect || !row.isSecretSuspect) && (!query.pathPrefix || row.path.startsWith(query.pathPrefix)))
    .map(({ row, score, matched }) => ({ path: row.path, score, matched }))
    .sort((a, b) => b.score - a.score || byPath(a, b))
    .slice(0, query.limit);
}

function assertRanking(actual: { path: string; score: number; matched: string[] }[], expected: typeof actual, what: string): void {
  assert.deepEqual(
    actual.map((r) => `${r.path} ${r.matched.join(",")}`),
    expected.map((r) => `${r.path} ${r.matched.join(",")}`),
    what,
  );
  actual.forEach((r, i) => assert.ok(Math.abs(r.score - expected[i]!.score) <= 1e-9 * Math.max(1, expected[i]!.score), `${what}: score of ${r.path}`));
}

const edgeOrder = (a: FileEdge, b: FileEdge): number => b.weight - a.weight || a.from - b.from || a.to - b.to;

for (const kind of STORE_KINDS) {
  describe(`Store contract: ${kind.name}`, { skip: kind.skip }, () => {
    const stores = new StoreTracker(kind);
    let pool: ExtractionPool;
    /** The source files of SOURCES and COMMON_NAME_FILES with their real extractions, plus text, secret and skipped rows. */
    let codeRows: FileInput[];

    before(async () => {
      pool = await ExtractionPool.create(0);
      const sources = [...Object.values(SOURCES), ...COMMON_NAME_FILES];
      codeRows = [
        ...(await Promise.all(sources.map((s) => codeRow(pool, s.path, s.language, s.content)))),
        textRow("docs/guide.md", "How a price will expire after a week.\n", { language: "markdown" }),
        textRow("config/secret.txt", "baseprice token\n", { isSecretSuspect: true, secretReasons: ["generic-api-key"] }),
        skippedRow("assets/logo.png", "binary"),
      ].sort(byPath);
    });
    // Each test opens its own stores: closed (and a PostgreSQL test schema dropped) as soon as it ends.
    afterEach(() => stores.closeAll());
    after(() => pool.close());

    test("a build is invisible until published; publishing supersedes the ready index atomically; a failed build changes nothing", async () => {
      const { store, location } = await stores.fresh();
      const reader = await stores.reopen(location);
      const first = await store.beginIndex(META);
      const building = await store.getIndex(first);
      assert.deepEqual({ ...building, startedAt: "" }, { ...META, id: first, indexVersion: null, status: "building", startedAt: "", finishedAt: null, stats: null, error: null });
      assert.ok(!Number.isNaN(Date.parse(building!.startedAt)));
      await store.addFiles(first, [textRow("a.txt", "alpha beta")]);
      assert.equal(await store.getReadyIndex(META.repoId), null, "a building index is not served");
      assert.equal(await reader.getReadyIndex(), null);
      assert.deepEqual(await reader.listReadyIndexes(), []);
      await store.publishIndex(first, "idx-1", STATS);
      const ready = await reader.getReadyIndex(META.repoId);
      assert.deepEqual({ ...ready, startedAt: "", finishedAt: "" }, { ...META, id: first, indexVersion: "idx-1", status: "ready", startedAt: "", finishedAt: "", stats: STATS, error: null });
      assert.ok(Date.parse(ready!.finishedAt!) >= Date.parse(ready!.startedAt));
      assert.deepEqual(await reader.getIndex(first), ready);

      const second = await store.beginIndex({ ...META, baseCommit: "b".repeat(40), dirty: true });
      await store.addFiles(second, [textRow("b.txt", "gamma delta")]);
      assert.equal((await reader.getReadyIndex(META.repoId))?.id, first, "the old index serves during a build");
      assert.deepEqual(await candidates(reader, first, { fragments: ["alpha"] }), ["a.txt"]);
      await store.failIndex(second, "simulated crash");
      const failed = await reader.getIndex(second);
      assert.equal(failed?.status, "failed");
      assert.equal(failed?.error, "simulated crash");
      assert.equal((await reader.getReadyIndex(META.repoId))?.id, first, "a failed build leaves the old index serving");
      await assert.rejects(store.publishIndex(second, "idx-2", STATS), "a failed build cannot be published");
      assert.equal((await reader.getReadyIndex(META.repoId))?.id, first);

      const third = await store.beginIndex(META);
      await store.addFiles(third, [textRow("c.txt", "epsilon")]);
      // Another instance keeps asking while the build is published: it sees the old index or the new one, never none.
      const seen = new Set<string | null>();
      let publishing = true;
      const watcher = (async () => {
        while (publishing) seen.add((await reader.getReadyIndex(META.repoId))?.id ?? null);
      })();
      try {
        await store.publishIndex(third, "idx-3", STATS);
      } finally {
        publishing = false;
        await watcher;
      }
      assert.ok(!seen.has(null), "never without a ready index");
      assert.equal((await reader.getReadyIndex(META.repoId))?.indexVersion, "idx-3");
      assert.deepEqual((await reader.listReadyIndexes()).map((i) => i.id), [third]);
      const old = await reader.getIndex(first);
      assert.ok(old === null || old.status === "superseded", `the previous index is superseded (${old?.status})`);
      assert.deepEqual(await candidates(reader, third, { fragments: ["psil"] }), ["c.txt"]);
      assert.equal(await reader.getIndex(randomUUID()), null);
      assertSound(store);
    });

    test("two repositories in one store are kept apart", async () => {
      const { store } = await stores.fresh();
      const one = await publish(store, [textRow("one.txt", "shared words one")], { repoId: "acme/one" }, "v-one");
      assert.equal((await store.getReadyIndex())?.id, one, "the only repository needs no id");
      const two = await publish(store, [textRow("two.txt", "shared words two")], { repoId: "acme/two", rootPath: "/repo2" }, "v-two");
      assert.equal(await store.getReadyIndex(), null, "ambiguous without a repository id");
      assert.deepEqual((await store.listReadyIndexes()).map((i) => [i.repoId, i.id]), [["acme/two", two], ["acme/one", one]], "newest first");
      assert.equal((await store.getReadyIndex("acme/one"))?.rootPath, "/repo");
      assert.equal((await store.getReadyIndex("acme/two"))?.rootPath, "/repo2");
      assert.equal(await store.getReadyIndex("acme/none"), null);
      assert.deepEqual((await store.listFiles(one)).map((f) => f.path), ["one.txt"]);
      assert.deepEqual(await candidates(store, two, { fragments: ["shared"] }), ["two.txt"]);
      assert.equal(await store.getFile(one, "two.txt"), null);
      const oneAgain = await publish(store, [textRow("one.txt", "shared words again")], { repoId: "acme/one" }, "v-one-2");
      assert.deepEqual((await store.listReadyIndexes()).map((i) => [i.repoId, i.id]), [["acme/one", oneAgain], ["acme/two", two]]);
      assert.equal((await store.getReadyIndex("acme/two"))?.indexVersion, "v-two", "a build of one repository leaves the other's index alone");
    });

    test("file rows round trip: every field, skip reasons, path order, literal path prefixes", async () => {
      const { store } = await stores.fresh();
      const rows = [
        textRow("src/app.ts", "export const app = 1;\n", {
          language: "typescript",
          mtimeMs: 1767225600123.4567,
          isGenerated: true,
          generatedReason: "header: @generated",
          isVendored: true,
          isSecretSuspect: true,
          secretReasons: ["aws-access-key-id", "github-token"],
          hasInstructionLikeText: true,
          symbolStatus: "timeout",
          symbolExtractor: "lexical",
          symbolDetail: "parse exceeded 2000 ms",
        }),
        ...["B.txt", "a.txt", "a-b.txt", "a/b.txt", "a_b.txt", "a%b.txt", "ab/c.txt", "é.txt", "Z/y.txt", "a_/x.txt"].map((p) => textRow(p, `text of ${p}`)),
        skippedRow("assets/logo.png", "binary"),
        skippedRow("data/dump.sql", "too_large", "1052672 bytes > limit 1048576", 1052672),
        skippedRow("docs/link.txt", "symlink_outside_root", "../../outside.txt"),
        skippedRow("docs/latin1.txt", "non_utf8", "content is not valid UTF-8"),
      ];
      const id = await publish(store, [...rows].sort(byPath));
      for (const r of rows) assert.deepEqual(await store.getFile(id, r.path), fileRowOf(r), r.path);
      assert.equal(await store.getFile(id, "missing.txt"), null);
      const sorted = rows.map(fileRowOf).sort(byPath);
      assert.deepEqual(await store.listFiles(id, { includeSkipped: true }), sorted, "every row, in path (code point) order");
      assert.deepEqual(await store.listFiles(id), sorted.filter((r) => r.skipReason === null), "skipped rows only when asked");
      assert.deepEqual((await store.listFiles(id, { pathPrefix: "a_" })).map((f) => f.path), ["a_/x.txt", "a_b.txt"], "_ is literal");
      assert.deepEqual((await store.listFiles(id, { pathPrefix: "a%" })).map((f) => f.path), ["a%b.txt"], "% is literal");
      assert.deepEqual((await store.listFiles(id, { pathPrefix: "a/" })).map((f) => f.path), ["a/b.txt"]);
      assert.deepEqual((await store.listFiles(id, { pathPrefix: "docs/", includeSkipped: true })).map((f) => f.path), ["docs/latin1.txt", "docs/link.txt"]);
      assert.deepEqual(await store.digestRows(id), sorted.map((r) => ({ path: r.path, contentHash: r.contentHash, skipReason: r.skipReason })));
      assert.equal(await store.getContent(id, "a%b.txt"), "text of a%b.txt");
      assert.equal(await store.getContent(id, "data/dump.sql"), null, "a skipped file has no text");
      assert.equal(await store.getContent(id, "missing.txt"), null);
    });

    test("summarize counts rows, languages, skip reasons with examples and top-level entries", async () => {
      const { store } = await stores.fresh();
      const rows = [
        textRow("src/a.ts", "a".repeat(100), { language: "typescript" }),
        textRow("src/b.ts", "b".repeat(50), { language: "typescript", isGenerated: true, generatedReason: "header" }),
        textRow("README.md", "r".repeat(30), { language: "markdown" }),
        textRow("LICENSE", "l".repeat(10), { language: null }),
        textRow("Makefile", "m".repeat(7), { language: "makefile", isVendored: true }),
        textRow("vendor/x.js", "x".repeat(5), { language: "javascript", isVendored: true, isSecretSuspect: true }),
        skippedRow("assets/logo.png", "binary", null, 16),
        ...Array.from({ length: 7 }, (_, i) => skippedRow(`big/${6 - i}.sql`, "too_large", "over the limit", 2000)),
      ].sort(byPath);
      const id = await publish(store, rows);
      assert.deepEqual(await store.summarize(id), {
        files: 14,
        indexedFiles: 6,
        bytes: 100 + 50 + 30 + 10 + 7 + 5 + 16 + 7 * 2000,
        generated: 1,
        vendored: 2,
        secretSuspect: 1,
        binary: 1,
        languages: [
          { language: "typescript", files: 2, bytes: 150 },
          { language: null, files: 1, bytes: 10 },
          { language: "javascript", files: 1, bytes: 5 },
          { language: "makefile", files: 1, bytes: 7 },
          { language: "markdown", files: 1, bytes: 30 },
        ],
        skipped: [
          { reason: "binary", files: 1, examples: ["assets/logo.png"] },
          { reason: "too_large", files: 7, examples: ["big/0.sql", "big/1.sql", "big/2.sql", "big/3.sql", "big/4.sql"] },
        ],
        topLevel: [
          { name: "LICENSE", files: 1 },
          { name: "Makefile", files: 1 },
          { name: "README.md", files: 1 },
          { name: "assets/", files: 1 },
          { name: "big/", files: 7 },
          { name: "src/", files: 2 },
          { name: "vendor/", files: 1 },
        ],
      });
    });

    test("trigram candidates: case-insensitive, every fragment, limits report more, the visitor stops the scan", async () => {
      const { store } = await stores.fresh();
      const files = Array.from({ length: 150 }, (_, i) => textRow(`f${String(i).padStart(3, "0")}.txt`, i % 2 === 0 ? "Needle in HAYSTACK" : "only hay"));
      const id = await publish(store, files);
      const hits = await candidates(store, id, { fragments: ["needle", "haystack"] });
      assert.deepEqual(hits, containing(files, ["needle", "haystack"]));
      assert.equal(hits.length, 75);
      assert.deepEqual(await candidates(store, id, { fragments: ["NEEDLE", "absent"] }), []);
      assert.equal((await candidates(store, id, { fragments: [] })).length, 150, "no fragments: every file");
      const limited = await store.candidateFiles(id, { fragments: ["needle"] }, 10);
      assert.deepEqual(limited.files.map((f) => f.path), hits.slice(0, 10));
      assert.equal(limited.more, true);
      const exact = await store.candidateFiles(id, { fragments: ["needle"] }, 75);
      assert.equal(exact.files.length, 75);
      assert.equal(exact.more, false, "no more when the limit is just enough");
      let visited = 0;
      await store.scanCandidates(id, { fragments: ["needle"] }, () => ++visited < 3);
      assert.equal(visited, 3, "the visitor stops the scan");
    });

    test("candidate fragments are literal text: %, _ and \\ match themselves; short and non-ASCII fragments; path prefix and extractor filters", async () => {
      const { store } = await stores.fresh();
      const files = [
        textRow("p/percent.txt", "discount 50% off"),
        textRow("p/fifty.txt", "discount 50x off"),
        textRow("p/under.txt", "snake_case_name"),
        textRow("p/underx.txt", "snakeXcaseXname"),
        textRow("p/backslash.txt", "C:\\path\\to\\file"),
        textRow("p/caps.txt", "A NEEDLE IN CAPS"),
        textRow("p/umlaut.txt", "ÄRGER über die Straße"),
        textRow("p/ab.txt", "xAbx"),
        textRow("p_x/needle.txt", "needle"),
        textRow("q/lexical.ex", "shared_word here", { symbolStatus: "no_grammar", symbolExtractor: "lexical" }),
        textRow("q/parsed.ts", "shared_word there", { symbolStatus: "ok", symbolExtractor: "tree-sitter" }),
        textRow("q/resolved.ts", "shared_word resolved", { symbolStatus: "ok", symbolExtractor: "scip" }),
        textRow("q/plain.txt", "shared_word anywhere"),
        skippedRow("p/skipped.bin", "binary"),
      ].sort(byPath);
      const id = await publish(store, files);
      const exact = async (fragments: string[], expected: string[], what: string, extra: Partial<CandidateQuery> = {}) =>
        assert.deepEqual(await candidates(store, id, { fragments, ...extra }), expected, what);
      await exact(["50%"], ["p/percent.txt"], "% is not a wildcard");
      await exact(["e_c"], ["p/under.txt"], "_ is not a wildcard");
      await exact(["\\path\\"], ["p/backslash.txt"], "\\ is not an escape");
      await exact(["needle in"], ["p/caps.txt"], "lower case finds upper case");
      await exact(["NeEdLe"], ["p/caps.txt", "p_x/needle.txt"], "mixed case");
      await exact(["ärger"], ["p/umlaut.txt"], "non-ASCII letters fold case too");
      await exact(["needle"], ["p_x/needle.txt"], "a path prefix is literal", { pathPrefix: "p_" });
      await exact(["needle"], ["p/caps.txt"], "a path prefix", { pathPrefix: "p/" });
      await exact(["shared_word"], ["q/lexical.ex", "q/parsed.ts", "q/plain.txt", "q/resolved.ts"], "every extractor");
      await exact(["shared_word"], ["q/lexical.ex", "q/plain.txt"], "parsed files (tree-sitter, SCIP) left out", { excludeParsed: true });
      // A limit below what the index proposes, with a filter dropping some of the first ones: the rest is read on.
      for (const limit of [1, 2, 3]) {
        const cut = await store.candidateFiles(id, { fragments: ["shared_word"], excludeParsed: true }, limit);
        assert.deepEqual(cut.files.map((f) => f.path), ["q/lexical.ex", "q/plain.txt"].slice(0, limit), `limit ${limit}`);
        assert.equal(cut.more, limit < 2, `limit ${limit}: more only when a filtered file was left out`);
      }
      for (const short of [["ab"], ["x"], ["%"], ["_"]]) {
        const found = await candidates(store, id, { fragments: short });
        for (const p of containing(files, short)) assert.ok(found.includes(p), `${short[0]}: ${p} may hold it, so it is a candidate`);
      }
      const all = await candidates(store, id, { fragments: [] });
      assert.ok(!all.includes("p/skipped.bin"), "a skipped file is never a candidate");
      assert.equal(all.length, files.length - 1);
    });

    test("readCandidate and getContent read one file's row and text", async () => {
      const { store } = await stores.fresh();
      const files = [textRow("a.txt", "alpha\nline two\n", { isSecretSuspect: true, secretReasons: ["x"] }), textRow("b.txt", "beta")];
      const id = await publish(store, files);
      const other = await publish(store, [textRow("c.txt", "gamma")], { repoId: "acme/other" });
      const { files: listed } = await store.candidateFiles(id, { fragments: ["alpha"] }, 10);
      assert.deepEqual(listed.map((f) => ({ id: f.id, path: f.path, sizeBytes: f.sizeBytes, isGenerated: f.isGenerated, isVendored: f.isVendored, isSecretSuspect: f.isSecretSuspect })), [
        { id: listed[0]!.id, path: "a.txt", sizeBytes: files[0]!.sizeBytes, isGenerated: false, isVendored: false, isSecretSuspect: true },
      ]);
      assert.deepEqual(await store.readCandidate(id, listed[0]!.id), { file: fileRowOf(files[0]!), content: "alpha\nline two\n" });
      assert.equal((await store.fileIds(id, ["a.txt"])).get("a.txt"), listed[0]!.id, "the same ids as fileIds");
      const otherId = (await store.fileIds(other, ["c.txt"])).get("c.txt")!;
      assert.equal(await store.readCandidate(id, otherId), null, "another index's file");
      assert.equal(await store.readCandidate(id, 987_654_321), null);
      assert.equal(await store.getContent(id, "b.txt"), "beta");
      assert.equal(await store.getContent(other, "b.txt"), null);
    });

    test("ranking: BM25F over path, defined-name and body terms, with the index's statistics", async () => {
      const { store } = await stores.fresh();
      const id = await publish(store, codeRows);
      const ids = await store.fileIds(id, codeRows.map((r) => r.path));
      const q = rankQuery(["compute", "baseprice", "quote", "table"]);
      const ranked = await store.rankFiles(id, q);
      assertRanking(ranked, expectedRanking(codeRows, ids, q), "four terms");
      assert.ok(ranked.length >= 5, `ranked ${ranked.length} files`);
      assert.ok(!ranked.some((r) => r.path === "config/secret.txt"), "secret-suspect files are left out");
      for (const r of ranked) assert.equal(r.fileId, ids.get(r.path));
      const withSecrets = { ...q, includeSecretSuspect: true };
      assertRanking(await store.rankFiles(id, withSecrets), expectedRanking(codeRows, ids, withSecrets), "secret-suspect files allowed");
      const weighted = { ...q, weights: { path: 3, symbols: 0.5, body: 0.25 }, limit: 2 };
      assertRanking(await store.rankFiles(id, weighted), expectedRanking(codeRows, ids, weighted), "other field weights, a limit");
      const under = { ...q, pathPrefix: "src/pricing/" };
      assertRanking(await store.rankFiles(id, under), expectedRanking(codeRows, ids, under), "a path prefix");
      const dup = { ...q, terms: [{ term: "Compute-BasePrice", weight: 1 }, { term: "baseprice", weight: 2 }, { term: "x", weight: 0 }] };
      const once = { ...q, terms: [{ term: "compute", weight: 1 }, { term: "baseprice", weight: 2 }] };
      assertRanking(await store.rankFiles(id, dup), expectedRanking(codeRows, ids, once), "terms split, lowercased, counted once with the larger weight");
      assert.deepEqual(
        (await store.rankFiles(id, rankQuery(["expiring"]))).map((r) => [r.path, r.matched]),
        [["docs/guide.md", ["expiring"]]],
        "terms are stemmed alike in index and query",
      );
      assert.deepEqual(await store.rankFiles(id, rankQuery(["nowhere"])), []);
      assert.deepEqual(await store.rankFiles(id, rankQuery([])), []);

      const stats = await store.termStats(id, ["compute", "baseprice", "nowhere"]);
      const termed = codeRows.filter((r) => r.terms);
      const avg = (f: keyof FieldValues) => termed.reduce((n, r) => n + termCount(r.terms![f]), 0) / termed.length;
      assert.equal(stats.files, termed.length);
      for (const f of RANK_FIELDS) assert.ok(Math.abs(stats.avgLength[f] - avg(f)) < 1e-9, f);
      const df = (t: string) => termed.filter((r) => RANK_FIELDS.some((f) => r.terms![f].split(" ").includes(t))).length;
      assert.deepEqual(stats.documentFrequency, [df("compute"), df("baseprice"), 0]);

      const known = await store.fileIds(id, ["src/pricing/quote.ts", "missing.ts", "src/pricing/quote.ts", "assets/logo.png"]);
      assert.deepEqual([...known.keys()].sort(), ["assets/logo.png", "src/pricing/quote.ts"], "unknown paths are absent");
      assert.equal(new Set(ids.values()).size, codeRows.length, "one id per file");
    });

    test("file edges: references to names other files define, heaviest first; common names make none", async () => {
      const { store } = await stores.fresh();
      const id = await publish(store, codeRows);
      const ids = await store.fileIds(id, codeRows.map((r) => r.path));
      const [price, quote, report, hot, m0] = ["src/pricing/price.ts", "src/pricing/quote.ts", "tools/report.py", "src/hot.ts", "src/many/m0.ts"].map((p) => ids.get(p)!);
      const edges = async (files: number[], limit = 50) => (await store.fileEdges(id, files, limit)).sort(edgeOrder);
      assert.deepEqual(await edges([price!]), [{ from: hot!, to: price!, weight: 10 }, { from: quote!, to: price!, weight: 2 }], "into price.ts; weights capped");
      assert.deepEqual(await edges([quote!]), [{ from: quote!, to: price!, weight: 2 }, { from: report!, to: quote!, weight: 2 }].sort(edgeOrder), "out of and into quote.ts");
      assert.deepEqual(
        await edges([quote!, price!]),
        [{ from: hot!, to: price!, weight: 10 }, { from: quote!, to: price!, weight: 2 }, { from: report!, to: quote!, weight: 2 }].sort(edgeOrder),
        "an edge between two given files counts once",
      );
      assert.deepEqual(await store.fileEdges(id, [price!], 1), [{ from: hot!, to: price!, weight: 10 }], "the heaviest within the limit");
      assert.deepEqual(await edges([m0!]), [], "a name nine files define makes no edges");
      assert.deepEqual(await edges([]), []);
    });

    test("symbols and references: exact and prefix names, path, kind, language and prefix filters, order, confidence", async () => {
      const { store } = await stores.fresh();
      const id = await publish(store, codeRows);
      const row = (p: string) => codeRows.find((r) => r.path === p)!;
      const [def] = await store.findSymbols(id, { name: "computeQuote", limit: 10 });
      const quote = row(SOURCES.quote.path);
      assert.deepEqual(def, {
        ...quote.extraction!.symbols.find((s) => s.name === "computeQuote")!,
        path: quote.path,
        language: "typescript",
        contentHash: quote.contentHash,
        scipSymbol: null,
        extractor: "tree-sitter",
        confidence: "high",
        file: fileRowOf(quote),
      });
      const names = async (q: Parameters<Store["findSymbols"]>[1]) => (await store.findSymbols(id, q)).map((s) => `${s.path}:${s.startLine} ${s.qualifiedName}`);
      assert.deepEqual(await names({ name: "computequote", limit: 10 }), [], "exact names are case-sensitive");
      assert.deepEqual(await names({ namePrefix: "COMPUTE", limit: 10 }), ["src/pricing/quote.ts:3 computeQuote"], "prefixes are not");
      assert.deepEqual(await names({ namePrefix: "get_", limit: 10 }), ["src/pricing/quote.ts:7 get_total"], "_ in a prefix is literal");
      assert.deepEqual(await names({ path: SOURCES.price.path, limit: 10 }), ["src/pricing/price.ts:1 basePrice", "src/pricing/price.ts:5 getXtotal", "src/pricing/price.ts:9 PriceTable", "src/pricing/price.ts:10 PriceTable#lookup"]);
      assert.deepEqual(await names({ kinds: ["class", "method"], limit: 10 }), ["src/pricing/price.ts:9 PriceTable", "src/pricing/price.ts:10 PriceTable#lookup"]);
      assert.deepEqual(await names({ language: "python", limit: 10 }), ["tools/report.py:4 tools.report.summarize_report"]);
      assert.deepEqual(await names({ name: "init", limit: 3 }), ["src/many/m0.ts:1 init", "src/many/m1.ts:1 init", "src/many/m2.ts:1 init"], "path order, then the limit");
      assert.deepEqual(await names({ name: "init", pathPrefix: "src/many/m8", limit: 10 }), ["src/many/m8.ts:1 init"]);
      assert.deepEqual(await names({ pathPrefix: "lib/", limit: 10 }), ["lib/billing.ex:2 charge_card"]);
      assert.equal((await store.findSymbols(id, { limit: 1000 })).length, codeRows.reduce((n, r) => n + (r.extraction?.symbols.length ?? 0), 0));
      const [lexical] = await store.findSymbols(id, { name: "charge_card", limit: 1 });
      assert.deepEqual([lexical?.extractor, lexical?.confidence], ["lexical", "low"]);
      assert.deepEqual(await store.findSymbols(id, { name: "broken", limit: 1 }), [], "the syntax-error file defines nothing here");

      const refs = async (q: Parameters<Store["findReferences"]>[1]) =>
        (await store.findReferences(id, q)).map((r) => `${r.path}:${r.line}:${r.column} ${r.kind} <- ${r.enclosing}`);
      assert.deepEqual(await refs({ name: "computeQuote", limit: 10 }), [
        "src/pricing/quote.ts:8:10 call <- get_total",
        "src/pricing/quote.ts:8:33 call <- get_total",
        "tools/report.py:1:19 import <- null",
        "tools/report.py:5:12 call <- tools.report.summarize_report",
      ]);
      assert.deepEqual(await refs({ name: "computeQuote", kinds: ["import"], limit: 10 }), ["tools/report.py:1:19 import <- null"]);
      assert.deepEqual(await refs({ name: "computeQuote", language: "typescript", limit: 1 }), ["src/pricing/quote.ts:8:10 call <- get_total"]);
      assert.deepEqual(await refs({ name: "basePrice", pathPrefix: "src/pricing/", limit: 10 }), [
        "src/pricing/price.ts:11:12 call <- PriceTable#lookup",
        "src/pricing/quote.ts:1:10 import <- null",
        "src/pricing/quote.ts:4:10 call <- computeQuote",
      ]);
      assert.deepEqual(await refs({ name: "computequote", limit: 10 }), [], "reference names are case-sensitive");
      const [ref] = await store.findReferences(id, { name: "summarize_report", limit: 1 });
      assert.equal(ref, undefined);
      const [call] = await store.findReferences(id, { name: "computeQuote", kinds: ["call"], pathPrefix: "tools/", limit: 1 });
      const report = row(SOURCES.report.path);
      const extracted = report.extraction!.references.find((r) => r.kind === "call") as ExtractedReference;
      assert.deepEqual(call, { ...extracted, path: report.path, language: "python", contentHash: report.contentHash, target: null, confidence: "high", file: fileRowOf(report) });

      const other = await publish(store, [codeRows.find((r) => r.path === SOURCES.quote.path)!], { repoId: "acme/other" });
      const summary = await store.symbolSummary(id);
      const status: Record<string, number> = {};
      for (const r of codeRows) if (r.symbolStatus) status[r.symbolStatus] = (status[r.symbolStatus] ?? 0) + 1;
      assert.deepEqual(summary, {
        symbols: codeRows.reduce((n, r) => n + (r.extraction?.symbols.length ?? 0), 0),
        references: codeRows.reduce((n, r) => n + (r.extraction?.references.length ?? 0), 0),
        byStatus: status,
      });
      assert.deepEqual(await store.symbolSummary(other), { symbols: 2, references: 4, byStatus: { ok: 1 } }, "counts are per index");
    });

    test("a build reuses an unchanged file's extraction from the ready index", async () => {
      const { store } = await stores.fresh();
      const first = await publish(store, codeRows);
      const reusable = await store.reusableExtractions(first);
      const extracted = codeRows.filter((r) => r.symbolStatus !== null);
      assert.deepEqual([...reusable.keys()].sort(), extracted.map((r) => r.path).sort(), "files whose symbols were extracted");
      const ids = await store.fileIds(first, extracted.map((r) => r.path));
      for (const r of extracted) {
        assert.deepEqual(reusable.get(r.path), { fileId: ids.get(r.path), contentHash: r.contentHash, symbolStatus: r.symbolStatus, symbolExtractor: r.symbolExtractor, symbolDetail: r.symbolDetail });
      }
      const before = async (indexId: string) => {
        const out: unknown[] = [];
        for (const r of extracted) out.push(await store.findSymbols(indexId, { path: r.path, limit: 100 }));
        for (const name of ["basePrice", "computeQuote", "init", "length"]) out.push(await store.findReferences(indexId, { name, limit: 100 }));
        return out;
      };
      const expected = await before(first);
      const summary = await store.symbolSummary(first);
      const second = await store.beginIndex(META);
      await store.addFiles(
        second,
        codeRows.map((r) => {
          const prior = reusable.get(r.path);
          if (!prior) return r;
          const { extraction: _e, ...rest } = r;
          return { ...rest, reuse: { indexId: first, fileId: prior.fileId } };
        }),
      );
      await store.publishIndex(second, "idx-2", STATS);
      assert.deepEqual(await before(second), expected, "the same symbols and references, enclosing names included");
      assert.deepEqual(await store.symbolSummary(second), summary);
      const ids2 = await store.fileIds(second, ["src/pricing/price.ts", "src/hot.ts"]);
      assert.deepEqual(await store.fileEdges(second, [ids2.get("src/pricing/price.ts")!], 1), [{ from: ids2.get("src/hot.ts"), to: ids2.get("src/pricing/price.ts"), weight: 10 }]);
    });

    test("SCIP rows: a definition's SCIP symbol and a reference's target round-trip, survive reuse, and set each row's confidence", async () => {
      const { store } = await stores.fresh();
      const base = await codeRow(pool, "s/box.ts", "typescript", "export class Box {\n  draw(): void {}\n}\nnew Box().draw();\nlater.draw();\n");
      const e = base.extraction!;
      const key = "scip-typescript npm . . s/`box.ts`/Box#draw().";
      const scip = {
        ...e,
        extractor: "scip" as const,
        confidence: "exact" as const,
        detail: "SCIP index (scip-typescript 0.4.0 · abc): test",
        symbols: e.symbols.map((x) => (x.name === "draw" ? { ...x, scipSymbol: key } : x)),
        references: e.references.map((r) => (r.name === "draw" && r.line === 4 ? { ...r, target: key } : r)),
      };
      const row = { ...base, extraction: scip, symbolExtractor: "scip" as const, symbolDetail: scip.detail };
      const first = await publish(store, [row]);
      const read = async (id: string) => ({
        defs: (await store.findSymbols(id, { path: "s/box.ts", limit: 10 })).map((x) => `${x.qualifiedName} ${x.scipSymbol} ${x.confidence}`),
        refs: (await store.findReferences(id, { name: "draw", limit: 10 })).map((r) => `${r.line} ${r.target} ${r.confidence}`),
      });
      const expected = { defs: ["Box null high", `Box#draw ${key} exact`], refs: [`4 ${key} exact`, "5 null medium"] };
      assert.deepEqual(await read(first), expected);
      const prior = (await store.reusableExtractions(first)).get("s/box.ts")!;
      assert.equal(prior.symbolExtractor, "scip");
      const second = await store.beginIndex(META);
      const { extraction: _e, ...rest } = row;
      await store.addFiles(second, [{ ...rest, reuse: { indexId: first, fileId: prior.fileId } }]);
      await store.publishIndex(second, "idx-2", STATS);
      assert.deepEqual(await read(second), expected, "copied with the file");
    });

    test("an in-place update replaces rows, symbols, terms, vectors and knowledge atomically; new ids never collide", async () => {
      const { store, location } = await stores.fresh();
      const reader = await stores.reopen(location);
      const v1 = [
        await codeRow(pool, "a.ts", "typescript", "export function removedFn(): void {}\n"),
        await codeRow(pool, "b.ts", "typescript", "export function keptFn(): void { removedFn(); }\n"),
        textRow("c.txt", "unchanged words"),
        await codeRow(pool, "z-last.ts", "typescript", "export function lastOld(): void {}\n"),
      ];
      const id = await store.beginIndex(META);
      await store.addFiles(id, v1);
      await store.addKnowledge(id, knowledge("first"));
      const ids = await store.fileIds(id, v1.map((r) => r.path));
      const vec = (x: number) => Float32Array.from([x, -x, x / 3, 1]);
      await store.putSemantic(id, Buffer.from("model"), new Map(v1.map((r, i) => [ids.get(r.path)!, vec(i + 1)])), SEMANTIC_META);
      await store.publishIndex(id, "idx-1", STATS);
      const beforeRows = await reader.digestRows(id);

      const upsert = [
        await codeRow(pool, "z-last.ts", "typescript", "export function lastNew(): void {}\n"),
        await codeRow(pool, "aaa-new.ts", "typescript", "export function freshFn(): void { keptFn(); }\n"),
      ];
      const stats2 = { ...STATS, files: 4, durationMs: 3 };
      const delta: IndexDelta = { meta: { baseCommit: "b".repeat(40), branch: "dev", dirty: true }, remove: ["a.ts"], upsert, knowledge: null, indexVersion: "idx-2", stats: stats2 };
      const seen: string[] = [];
      let updating = true;
      const watcher = (async () => {
        while (updating) seen.push(JSON.stringify(await reader.digestRows(id)));
      })();
      try {
        await store.applyDelta(id, delta);
      } finally {
        updating = false;
        await watcher;
      }
      const afterRows = await reader.digestRows(id);
      for (const s of seen) assert.ok(s === JSON.stringify(beforeRows) || s === JSON.stringify(afterRows), "readers see the old rows or the new ones, never a mix");

      const index = (await reader.getReadyIndex(META.repoId))!;
      assert.deepEqual(
        { id: index.id, baseCommit: index.baseCommit, branch: index.branch, dirty: index.dirty, indexVersion: index.indexVersion, stats: index.stats, status: index.status },
        { id, baseCommit: "b".repeat(40), branch: "dev", dirty: true, indexVersion: "idx-2", stats: stats2, status: "ready" },
      );
      assert.deepEqual(afterRows.map((r) => r.path), ["aaa-new.ts", "b.ts", "c.txt", "z-last.ts"]);
      assert.equal((await reader.getFile(id, "z-last.ts"))?.contentHash, upsert[0]!.contentHash);
      const ids2 = await reader.fileIds(id, afterRows.map((r) => r.path));
      assert.equal(new Set(ids2.values()).size, 4, "every file keeps a distinct id");
      assert.deepEqual(await reader.findSymbols(id, { name: "removedFn", limit: 10 }), []);
      assert.deepEqual(await reader.findSymbols(id, { name: "lastOld", limit: 10 }), []);
      assert.deepEqual((await reader.findSymbols(id, { name: "lastNew", limit: 10 })).map((s) => s.path), ["z-last.ts"]);
      assert.deepEqual((await reader.findReferences(id, { name: "keptFn", limit: 10 })).map((r) => `${r.path} <- ${r.enclosing}`), ["aaa-new.ts <- freshFn"]);
      assert.deepEqual(await candidates(reader, id, { fragments: ["removedFn"] }), ["b.ts"], "the removed file's text is gone");
      assert.deepEqual(await candidates(reader, id, { fragments: ["freshFn"] }), ["aaa-new.ts"]);
      assert.deepEqual((await reader.rankFiles(id, rankQuery(["lastold"]))).map((r) => r.path), [], "the changed file's old terms are gone");
      assert.deepEqual((await reader.rankFiles(id, rankQuery(["lastnew"]))).map((r) => r.path), ["z-last.ts"]);
      assert.equal((await reader.termStats(id, ["keptfn"])).files, 4);
      const vectors = await reader.fileVectors(id);
      assert.ok(!vectors.has(ids.get("a.ts")!), "a removed file's vector goes with its row");
      assert.deepEqual(vectors.get(ids2.get("b.ts")!), vec(2), "an unchanged file keeps its vector");
      assert.deepEqual(await reader.getKnowledge(id), await store.getKnowledge(id));
      assert.equal((await reader.getKnowledge(id)).graph.modules.length, 3, "knowledge stays when the delta has none");

      await store.applyDelta(id, { ...DELTA_BASE, remove: [], upsert: [], knowledge: knowledge("second"), indexVersion: "idx-3" });
      const k2 = knowledge("second");
      assert.deepEqual(await reader.getKnowledge(id), { graph: k2.graph, ownership: k2.ownership });
      assert.deepEqual(await reader.listDocs(id, { limit: 10 }), { docs: k2.docs, total: 1 });
      assert.deepEqual(await reader.listInstructionFiles(id), []);
      assert.equal((await reader.getIndex(id))?.indexVersion, "idx-3");

      const building = await store.beginIndex(META);
      await assert.rejects(store.applyDelta(building, { ...DELTA_BASE, remove: [], upsert: [], indexVersion: "x" }), "only a ready index is updated in place");
      await store.failIndex(building, "abandoned");
      assertSound(store);
    });

    test("the last file (highest id) changes while a new file sorts before it: ids never collide", async () => {
      const { store } = await stores.fresh();
      const id = await publish(store, [textRow("a.txt", "one"), textRow("m.txt", "two"), textRow("z.txt", "three")]);
      await store.applyDelta(id, { ...DELTA_BASE, remove: [], upsert: [textRow("z.txt", "three changed"), textRow("0-new.txt", "new first")], indexVersion: "idx-2" });
      await store.applyDelta(id, { ...DELTA_BASE, remove: ["m.txt"], upsert: [textRow("z.txt", "three again"), textRow("n.txt", "n"), textRow("o.txt", "o")], indexVersion: "idx-3" });
      assert.deepEqual((await store.listFiles(id)).map((f) => f.path), ["0-new.txt", "a.txt", "n.txt", "o.txt", "z.txt"]);
      assert.deepEqual(await candidates(store, id, { fragments: ["three again"] }), ["z.txt"]);
      assertSound(store);
    });

    test("after in-place updates, candidates still come in file id order: updated and new files merged among the rest", async () => {
      const { store } = await stores.fresh();
      const rows = Array.from({ length: 60 }, (_, i) => textRow(`f${String(i).padStart(2, "0")}.txt`, i % 3 === 0 ? `needle ${i}` : `hay ${i}`));
      const id = await publish(store, rows);
      // An edited file keeps its id (now written late), a new file takes the next one, a removed one leaves a gap.
      await store.applyDelta(id, {
        ...DELTA_BASE,
        remove: ["f09.txt"],
        upsert: [textRow("f10.txt", "needle now"), textRow("f30.txt", "hay now"), textRow("g-new.txt", "needle new")],
        indexVersion: "idx-2",
      });
      await store.applyDelta(id, { ...DELTA_BASE, remove: [], upsert: [textRow("f01.txt", "needle again")], indexVersion: "idx-3" });
      const expected = ["f00", "f01", "f03", "f06", "f10", "f12", "f15", "f18", "f21", "f24", "f27", "f33", "f36", "f39", "f42", "f45", "f48", "f51", "f54", "f57"]
        .map((n) => `${n}.txt`)
        .concat("g-new.txt");
      assert.deepEqual(await candidates(store, id, { fragments: ["needle"] }), expected);
      const firstFive: string[] = [];
      await store.scanCandidates(id, { fragments: ["NEEDLE"] }, (c) => firstFive.push(c.file.path) < 5);
      assert.deepEqual(firstFive, expected.slice(0, 5), "a visitor that stops early got the first matches by id");
      const limited = await store.candidateFiles(id, { fragments: ["needle"] }, 3);
      assert.deepEqual({ paths: limited.files.map((f) => f.path), more: limited.more }, { paths: expected.slice(0, 3), more: true });
      assert.deepEqual(await candidates(store, id, { fragments: ["needle"], pathPrefix: "f1" }), ["f10.txt", "f12.txt", "f15.txt", "f18.txt"]);
      const short = await candidates(store, id, { fragments: ["ne"] });
      for (const p of expected) assert.ok(short.includes(p), `a short fragment's candidates include ${p}, which holds it`);
      assertSound(store);
    });

    test("dirty paths: from the knowledge, then replaced", async () => {
      const { store } = await stores.fresh();
      const id = await store.beginIndex(META);
      assert.deepEqual(await store.getDirtyPaths(id), [], "none recorded");
      await store.addKnowledge(id, knowledge("first"));
      assert.deepEqual(await store.getDirtyPaths(id), ["web/src/x.ts", "README.md"]);
      await store.publishIndex(id, "idx-1", STATS);
      await store.setDirtyPaths(id, ["z.ts", "a b/ü.ts"]);
      assert.deepEqual(await store.getDirtyPaths(id), ["z.ts", "a b/ü.ts"], "kept as given");
      await store.setDirtyPaths(id, []);
      assert.deepEqual(await store.getDirtyPaths(id), []);
    });

    test("knowledge round trips: modules by path, rules by ordinal, documents by path with literal prefixes, instruction files", async () => {
      const { store } = await stores.fresh();
      const empty = await publish(store, [textRow("x.txt", "x")], { repoId: "acme/empty" });
      assert.deepEqual(await store.getKnowledge(empty), {
        graph: { buildSystems: [], modules: [], edges: [], rootTestCommand: null, entrypoints: [], warnings: [] },
        ownership: { path: null, shadowed: [], rules: [], warnings: [] },
      });
      assert.deepEqual(await store.listDocs(empty, { limit: 10 }), { docs: [], total: 0 });
      assert.deepEqual(await store.listInstructionFiles(empty), []);

      const k = knowledge("first");
      const id = await store.beginIndex(META);
      await store.addFiles(id, [textRow("README.md", "# Readme")]);
      await store.addKnowledge(id, k);
      await store.publishIndex(id, "idx-1", STATS);
      const { graph, ownership } = await store.getKnowledge(id);
      assert.deepEqual(graph, { ...k.graph, modules: [...k.graph.modules].sort((a, b) => byPath(a, b) || (a.name < b.name ? -1 : 1)) });
      assert.deepEqual(ownership, { ...k.ownership, rules: [...k.ownership.rules].sort((a, b) => a.ordinal - b.ordinal) });
      const docs = [...k.docs].sort(byPath);
      assert.deepEqual(await store.listDocs(id, { limit: 100 }), { docs, total: 4 });
      assert.deepEqual(await store.listDocs(id, { pathPrefix: "docs/", limit: 100 }), { docs: docs.filter((d) => d.path.startsWith("docs/")), total: 2 });
      assert.deepEqual(await store.listDocs(id, { pathPrefix: "docs_", limit: 100 }), { docs: docs.filter((d) => d.path.startsWith("docs_")), total: 1 }, "_ is literal");
      assert.deepEqual(await store.listDocs(id, { pathPrefix: "docs", limit: 1 }), { docs: docs.filter((d) => d.path.startsWith("docs")).slice(0, 1), total: 3 }, "total counts past the limit");
      assert.deepEqual(await store.getDoc(id, "docs/a.md"), k.docs.find((d) => d.docId === "docs/a.md"));
      assert.equal(await store.getDoc(id, "docs/missing.md"), null);
      assert.equal(await store.getDoc(empty, "docs/a.md"), null, "documents belong to their index");
      assert.deepEqual(await store.listInstructionFiles(id), [...k.instructions].sort(byPath));
    });

    test("semantic data: the model, its metadata and file vectors round trip; a vector goes with its file row", async () => {
      const { store } = await stores.fresh();
      const id = await store.beginIndex(META);
      await store.addFiles(id, [textRow("a.txt", "alpha"), textRow("b.txt", "beta"), textRow("c.txt", "gamma")]);
      const ids = await store.fileIds(id, ["a.txt", "b.txt", "c.txt"]);
      const [a, b, c] = ["a.txt", "b.txt", "c.txt"].map((p) => ids.get(p)!);
      const vectors = new Map([
        [c!, Float32Array.from([0.5, -0.25, 1e-30, 3.4e38])],
        [a!, Float32Array.from([0.1, -2.5, 3e-8, 1])],
        [b!, Float32Array.from([0, -0, 7, Number.MIN_VALUE])],
      ]);
      const model = Buffer.from([0, 1, 2, 255, 128, 0, 7]);
      assert.equal(await store.getSemantic(id), null, "none yet");
      await store.putSemantic(id, model, vectors, SEMANTIC_META);
      await store.publishIndex(id, "idx-1", STATS);
      const stored = await store.getSemantic(id);
      assert.ok(stored !== null && stored.model.equals(model), "the model's bytes");
      assert.deepEqual(stored.meta, SEMANTIC_META);
      assert.ok(!Number.isNaN(Date.parse(stored.createdAt)));
      const all = await store.fileVectors(id);
      assert.deepEqual([...all.keys()], [a, b, c].sort((x, y) => x! - y!), "by file id");
      for (const [fileId, v] of vectors) assert.deepEqual(all.get(fileId), v, `vector of ${fileId}`);
      assert.deepEqual([...(await store.fileVectors(id, [c!, 987_654_321, c!])).entries()], [[c, vectors.get(c!)]], "some of them; unknown ids absent");
      assert.deepEqual(await store.fileVectors(id, []), new Map());

      const replaced = Float32Array.from([9, 8, 7, 6]);
      await store.putFileVectors(id, new Map([[b!, replaced]]));
      assert.deepEqual((await store.fileVectors(id, [b!])).get(b!), replaced);
      assert.deepEqual((await store.fileVectors(id, [a!])).get(a!), vectors.get(a!), "the others stay");
      await assert.rejects(store.putFileVectors(id, new Map([[b!, new Float32Array(3)]])), /dimensions/);
      const other = await publish(store, [textRow("o.txt", "other")], { repoId: "acme/other" });
      const foreign = (await store.fileIds(other, ["o.txt"])).get("o.txt")!;
      await assert.rejects(store.putFileVectors(id, new Map([[foreign, replaced]])), /not in index/, "another index's file");
      await assert.rejects(store.putFileVectors(other, new Map([[foreign, replaced]])), "an index without semantic data");

      await store.applyDelta(id, { ...DELTA_BASE, remove: ["a.txt"], upsert: [], indexVersion: "idx-2" });
      assert.deepEqual([...(await store.fileVectors(id)).keys()], [b, c].sort((x, y) => x! - y!), "a removed file's vector goes with it");
      await store.putSemantic(id, Buffer.from("second model"), new Map([[c!, replaced]]), { ...SEMANTIC_META, fallback: "endpoint down" });
      assert.equal((await store.getSemantic(id))?.meta.fallback, "endpoint down");
      assert.deepEqual([...(await store.fileVectors(id)).keys()], [c], "putSemantic replaces every vector");
      assert.equal(await store.getSemantic(other), null);
      assert.equal(await store.getSemantic(randomUUID()), null);
    });

    test("audit records: every field round trips, newest first, filtered by time and tool, limited", async () => {
      const { store } = await stores.fresh();
      const records = auditRecords();
      assert.deepEqual(await store.listAudit({ limit: 10 }), []);
      for (const r of records) await store.appendAudit(r);
      const newestFirst = [...records].reverse();
      assert.deepEqual(await store.listAudit({ limit: 10 }), newestFirst);
      assert.deepEqual(await store.listAudit({ limit: 2 }), newestFirst.slice(0, 2));
      assert.deepEqual(await store.listAudit({ tool: "search_code", limit: 10 }), newestFirst.filter((r) => r.tool === "search_code"));
      assert.deepEqual(await store.listAudit({ since: records[1]!.at, limit: 10 }), newestFirst.slice(0, 3), "since is inclusive");
      assert.deepEqual(await store.listAudit({ since: records[1]!.at, tool: "search_code", limit: 10 }), [records[2]]);
      assert.deepEqual(await store.listAudit({ tool: "get_file_slice", limit: 10 }), []);
    });

    test("two instances on one store (processes, replicas) see each other's builds and updates", async () => {
      const { store: writer, location } = await stores.fresh();
      const replica = await stores.reopen(location);
      const first = await publish(writer, [textRow("one.txt", "alpha words"), textRow("x.txt", "other")]);
      assert.deepEqual(await replica.getReadyIndex(META.repoId), await writer.getReadyIndex(META.repoId));
      assert.deepEqual(await candidates(replica, first, { fragments: ["alpha"] }), ["one.txt"]);
      assert.deepEqual((await replica.rankFiles(first, rankQuery(["alpha"]))).map((r) => r.path), ["one.txt"]);
      await writer.applyDelta(first, { ...DELTA_BASE, remove: ["one.txt"], upsert: [textRow("two.txt", "alpha again")], indexVersion: "idx-2" });
      assert.equal((await replica.getReadyIndex(META.repoId))?.indexVersion, "idx-2");
      assert.deepEqual(await candidates(replica, first, { fragments: ["alpha"] }), ["two.txt"], "no stale candidates after an update elsewhere");
      assert.deepEqual((await replica.rankFiles(first, rankQuery(["alpha"]))).map((r) => r.path), ["two.txt"], "no stale ranking after an update elsewhere");
      const second = await publish(writer, [textRow("three.txt", "alpha three")], {}, "idx-3");
      assert.equal((await replica.getReadyIndex(META.repoId))?.id, second);
      assert.deepEqual(await candidates(replica, second, { fragments: ["alpha"] }), ["three.txt"]);
    });

    test("what was written survives close and reopen", async () => {
      const { store, location } = await stores.fresh();
      const id = await publish(store, [textRow("keep.txt", "persisted words")]);
      await store.appendAudit(auditRecords()[0]!);
      await stores.close(store);
      const again = await stores.reopen(location);
      assert.equal((await again.getReadyIndex(META.repoId))?.id, id);
      assert.deepEqual(await candidates(again, id, { fragments: ["persisted"] }), ["keep.txt"]);
      assert.deepEqual(await again.listAudit({ limit: 10 }), [auditRecords()[0]]);
      assert.ok(again.description.length > 0);
    });
  });
}

const MIB = 1024 * 1024;
const CONTROLLER = "services/pricing/src/main/java/com/acme/pricing/QuoteController.java";
const FRESH = "web/src/fresh.ts";
const REPORT = "tools/pricing_report.py";
const NAMES = ["quote", "getQuote", "quoteWithDiscount", "freshlyAddedFunction", "summarize_quotes", "isQuoteExpired"];
const RANK_QUERIES = ["quote with discount", "freshly added function", "summarize quotes report"];

/** Files ranked for a natural-language query, best first, with their scores. */
async function ranked(store: Store, indexId: string, text: string): Promise<string[]> {
  const terms = queryTerms(text).map((term) => ({ term, weight: 1 }));
  const hits = await store.rankFiles(indexId, { terms, weights: { path: 1, symbols: 2, body: 1 }, limit: 20 });
  return hits.map((h) => `${h.path} ${h.score.toFixed(9)} ${h.matched.join(",")}`);
}

/** Everything a query could see of an index: file rows, symbols and references of some names, ranking, knowledge. */
async function snapshot(store: Store, indexId: string): Promise<string> {
  const out: unknown[] = [await store.listFiles(indexId, { includeSkipped: true })];
  for (const name of NAMES) {
    out.push((await store.findSymbols(indexId, { name, limit: 100 })).map((s) => `${s.path}:${s.startLine} ${s.qualifiedName}`));
    out.push((await store.findReferences(indexId, { name, limit: 100 })).map((x) => `${x.path}:${x.line}:${x.column} ${x.kind} <- ${x.enclosing}`));
  }
  for (const text of RANK_QUERIES) out.push(await ranked(store, indexId, text));
  const k = await store.getKnowledge(indexId);
  out.push(k.graph.modules.map((m) => m.name), (await store.listDocs(indexId, { limit: 1000 })).docs.map((d) => d.path));
  return JSON.stringify(out);
}

for (const kind of STORE_KINDS) {
  describe(`Store contract, in-place update of the ready index by the pipeline: ${kind.name}`, { skip: kind.skip }, () => {
    const stores = new StoreTracker(kind);
    let repo: BuiltRepo;
    let store: Store;
    let first: IndexResult;
    let original: string;

    /** A full build of the same work tree into a fresh store of the same kind, for comparison. */
    const fullBuild = async (): Promise<{ version: string; snap: string }> => {
      const { store: other } = await stores.fresh();
      try {
        const r = await buildIndex({ root: repo.root, store: other, maxFileBytes: MIB });
        return { version: r.indexVersion, snap: await snapshot(other, r.indexId) };
      } finally {
        await stores.close(other);
      }
    };

    before(async () => {
      repo = buildGoldenRepo();
      ({ store } = await stores.fresh());
      first = await buildIndex({ root: repo.root, store, maxFileBytes: MIB });
      original = readFileSync(join(repo.root, CONTROLLER), "utf8");
    });
    after(async () => {
      await stores.closeAll();
      repo.cleanup();
    });

    test("nothing changed: the update reads nothing and keeps the version", async () => {
      const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
      assert.ok(r);
      assert.equal(r.indexId, first.indexId);
      assert.equal(r.indexVersion, first.indexVersion);
      assert.equal(r.stats.extractedFiles, 0);
    });

    test("an edit, a new file and a deleted file: two files extracted, the same rows and version as a full build", async () => {
      writeFileSync(
        join(repo.root, CONTROLLER),
        original.replace("    public BigDecimal getQuote(", "    public BigDecimal quoteWithDiscount(String sku) {\n        return quoteService.quote(sku, 1);\n    }\n\n    public BigDecimal getQuote("),
      );
      writeFileSync(join(repo.root, FRESH), "export function freshlyAddedFunction(): number {\n  return 1;\n}\n");
      unlinkSync(join(repo.root, REPORT));
      assert.deepEqual(await ranked(store, first.indexId, "discount"), []);
      const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
      assert.ok(r, "a few changed files take the in-place path");
      assert.deepEqual(
        (await ranked(store, r.indexId, "discount")).map((h) => h.split(" ")[0]),
        [CONTROLLER],
        "the edited file's new terms are ranked",
      );
      assert.equal(r.indexId, first.indexId);
      assert.equal(r.stats.extractedFiles, 2);
      assert.notEqual(r.indexVersion, first.indexVersion);
      assert.equal((await store.getReadyIndex())!.indexVersion, r.indexVersion);
      const full = await fullBuild();
      assert.equal(r.indexVersion, full.version, "the same version a full build of this tree gets");
      assert.equal(await snapshot(store, r.indexId), full.snap, "the same rows, symbols, references, ranking and knowledge");
      // Text search sees the new file and no longer the deleted one.
      const hits: string[] = [];
      await store.scanCandidates(r.indexId, { fragments: ["freshlyAdded"] }, (c) => (hits.push(c.file.path), true));
      assert.deepEqual(hits, [FRESH]);
      // The same through the store's cached rows, which the update moved instead of reloading them.
      assert.deepEqual((await store.candidateFiles(r.indexId, { fragments: ["freshlyAdded"] }, 10)).files.map((f) => f.path), [FRESH]);
      assert.deepEqual((await store.candidateFiles(r.indexId, { fragments: ["quoteWithDiscount"] }, 10)).files.map((f) => f.path), [CONTROLLER]);
      // Deleted but still tracked: a build keeps its row as unreadable, and so does the update.
      assert.equal((await store.getFile(r.indexId, REPORT))!.skipReason, "unreadable");
      assertSound(store);
    });

    test("reverting an edit that was uncommitted at the last update brings the original rows back", async () => {
      writeFileSync(join(repo.root, CONTROLLER), original);
      git(repo.root, ["checkout", "--", REPORT]);
      rmSync(join(repo.root, FRESH));
      const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
      assert.ok(r);
      assert.equal(r.indexVersion, first.indexVersion, "back to the first build's version");
    });

    test("the last file (highest id) changes while a new file sorts before it: ids never collide", async () => {
      const ready = (await store.getReadyIndex())!;
      const last = (await store.listFiles(ready.id, { includeSkipped: true })).map((f) => f.path).sort().at(-1)!;
      const before = readFileSync(join(repo.root, last), "utf8");
      appendFileSync(join(repo.root, last), "\n// changed last\n");
      writeFileSync(join(repo.root, "aaa-new.ts"), "export const first = 1;\n");
      try {
        const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
        assert.ok(r, "an in-place update, not a rebuild");
        assert.equal(r.indexVersion, (await fullBuild()).version);
      } finally {
        writeFileSync(join(repo.root, last), before);
        unlinkSync(join(repo.root, "aaa-new.ts"));
        await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
      }
    });

    test("told which files changed (a watcher's events): git is asked about those and the dirty ones alone, same rows and version as a build", async () => {
      const updater = new IndexUpdater({ root: repo.root, store, maxFileBytes: MIB });
      try {
        assert.ok(await updater.update(), "the first update looks at the whole work tree");
        writeFileSync(join(repo.root, CONTROLLER), original.replace("    public BigDecimal getQuote(", "    public BigDecimal quoteNow(String sku) {\n        return quoteService.quote(sku, 2);\n    }\n\n    public BigDecimal getQuote("));
        writeFileSync(join(repo.root, "build/output.js"), "console.log('changed ignored output');\n");
        const r = await updater.update([CONTROLLER, "build", "build/output.js"]);
        assert.ok(r, "an in-place update");
        assert.equal(r.stats.extractedFiles, 1, "a named file that git ignores is not indexed");
        assert.equal(await store.getFile(r.indexId, "build/output.js"), null);
        const full = await fullBuild();
        assert.equal(r.indexVersion, full.version, "the version moved by the changed rows alone equals a build's");
        assert.equal(await snapshot(store, r.indexId), full.snap);
        // The revert is seen though no event names it: the file was dirty at the last update, so git is asked again.
        writeFileSync(join(repo.root, CONTROLLER), original);
        const back = await updater.update([]);
        assert.ok(back);
        assert.equal(back.indexVersion, first.indexVersion, "back to the first build's version");
        // An event inside .git (a commit, a checkout) makes the update look at everything: an unnamed new file is found.
        writeFileSync(join(repo.root, FRESH), "export function freshlyAddedFunction(): number {\n  return 1;\n}\n");
        const whole = await updater.update([".git/HEAD"]);
        assert.ok(whole);
        assert.ok(await store.getFile(whole.indexId, FRESH));
        rmSync(join(repo.root, FRESH));
        assert.equal((await updater.update([FRESH]))!.indexVersion, first.indexVersion);
      } finally {
        await updater.close();
      }
    });

    test("a new commit moves the index to it; a changed ignore file needs a build", async () => {
      appendFileSync(join(repo.root, "README.md"), "\nCommitted change.\n");
      git(repo.root, ["add", "README.md"]);
      git(repo.root, ["commit", "-q", "-m", "docs"]);
      const head = git(repo.root, ["rev-parse", "HEAD"]);
      const r = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
      assert.ok(r);
      assert.equal(r.repo.baseCommit, head);
      assert.equal((await store.getReadyIndex())!.baseCommit, head);
      const full = await fullBuild();
      assert.equal(r.indexVersion, full.version);
      appendFileSync(join(repo.root, ".gitignore"), "*.tmp\n");
      assert.equal(await updateIndex({ root: repo.root, store, maxFileBytes: MIB }), null);
      assert.equal(await updateIndex({ root: repo.root, store, maxFileBytes: MIB, incremental: false }), null, "--full always builds");
    });
  });
}
