import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import Database from "better-sqlite3";
import { PolicyFileSchema, defaultReadPolicy } from "../src/config/schema.js";
import { type SemanticMeta, EmbeddingProviderError } from "../src/core/semantic.js";
import { MODEL_FORMAT, SemanticModel, lightStem } from "../src/indexer/semantic/model.js";
import { createEmbeddingProvider, embeddingsEndpoint, openAiCompatibleProvider } from "../src/sources/embeddings.js";
import { multiply, orthonormalize, randomizedEigen, type SparseMatrix } from "../src/indexer/semantic/linalg.js";
import { gaussian, seededRandom } from "../src/indexer/semantic/random.js";
import { SemanticTrainer, type TrainerOptions } from "../src/indexer/semantic/trainer.js";
import { SEMANTIC_RETRIEVAL, denseScores, expandQuery, loadSemantic } from "../src/query/semantic.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { FileInput, IndexMeta } from "../src/store/store.js";
import { textFile } from "./helpers/rows.js";
import { builtinProvider } from "../src/indexer/semantic/builtin-provider.js";

/**
 * Identifiers of four unrelated concerns, already split into sub-words. Cache expiry is the one queries ask
 * about: its words (expire, expiration, ttl, stale) occur in each other's company and never with the others'.
 */
const TOPICS: Record<string, string[][]> = {
  expiry: [
    ["is", "quote", "expired"], ["issued", "at"], ["expiration", "time"], ["ttl", "seconds"], ["mark", "stale"],
    ["expire", "after"], ["check", "expiration"], ["entry", "ttl"], ["expires", "at"], ["stale", "entry"],
    ["cache", "expire"], ["evict", "stale"], ["ttl", "expiration"], ["expire", "entry"],
  ],
  auth: [
    ["hash", "password"], ["verify", "token"], ["login", "user"], ["session", "token"], ["user", "password"],
    ["auth", "header"], ["check", "password"], ["token", "secret"], ["login", "session"], ["verify", "user"],
  ],
  http: [
    ["parse", "request"], ["request", "headers"], ["response", "body"], ["send", "response"], ["http", "status"],
    ["request", "body"], ["status", "code"], ["response", "headers"], ["route", "request"], ["http", "method"],
  ],
  storage: [
    ["query", "rows"], ["insert", "row"], ["table", "schema"], ["db", "connection"], ["commit", "transaction"],
    ["row", "count"], ["schema", "migration"], ["rollback", "transaction"], ["table", "index"], ["db", "query"],
  ],
};
/** Words every kind of file uses: they must not make unrelated files look alike. */
const COMMON = [["get", "value"], ["set", "value"], ["result"], ["data"], ["error"], ["config"]];
const DOCS_PER_TOPIC = 60;
const IDENTIFIERS_PER_DOC = 40;
const SMALL: Partial<TrainerOptions> = { minCount: 3 };

/** A deterministic corpus: each document draws identifiers from one topic and the common words. */
function corpus(seed = 7): string[][] {
  const random = seededRandom(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
  const docs: string[][] = [];
  for (let d = 0; d < DOCS_PER_TOPIC; d++) {
    for (const ids of Object.values(TOPICS)) {
      const doc: string[] = [];
      for (let i = 0; i < IDENTIFIERS_PER_DOC; i++) doc.push(...(random() < 0.25 ? pick(COMMON) : pick(ids)));
      docs.push(doc);
    }
  }
  return docs;
}

function train(docs: string[][], opts: Partial<TrainerOptions> = SMALL) {
  const t = new SemanticTrainer(opts);
  for (const d of docs) t.add(d);
  return t.finish();
}

describe("randomized eigendecomposition", () => {
  /** A dense symmetric matrix with known eigenvalues (Q·diag(λ)·Qᵀ for a random orthonormal Q), as CSR. */
  function known(n: number, lambdas: number[]): SparseMatrix {
    const normal = gaussian(seededRandom(3));
    const q = orthonormalize({ rows: n, cols: lambdas.length, data: Float32Array.from({ length: n * lambdas.length }, normal) });
    const rowStart = Int32Array.from({ length: n + 1 }, (_, i) => i * n);
    const cols = Int32Array.from({ length: n * n }, (_, p) => p % n);
    const values = Float32Array.from({ length: n * n }, (_, p) => {
      const [i, j] = [Math.floor(p / n), p % n];
      return lambdas.reduce((s, l, r) => s + l * q.data[i * lambdas.length + r]! * q.data[j * lambdas.length + r]!, 0);
    });
    return { n, rowStart, cols, values };
  }

  test("finds the dominant eigenpairs, by magnitude, of a symmetric matrix", () => {
    const a = known(60, [10, -8, 6, 0.5, 0.25, 0.1]);
    const { vectors, values } = randomizedEigen(a, { rank: 3, oversample: 3, powerIterations: 3, seed: 1 });
    assert.deepEqual([...values].map((v) => Math.round(v * 1000) / 1000), [10, -8, 6]);
    const av = multiply(a, vectors);
    for (let r = 0; r < 3; r++) {
      for (let i = 0; i < a.n; i++) assert.ok(Math.abs(av.data[i * 3 + r]! - values[r]! * vectors.data[i * 3 + r]!) < 1e-3, `A·v = λ·v for pair ${r}`);
    }
  });

  test("a rank-deficient block orthonormalizes without inventing directions", () => {
    const x = { rows: 4, cols: 3, data: Float32Array.from([1, 2, 1, 0, 0, 0, 1, 2, 1, 0, 0, 0]) };
    const q = orthonormalize(x);
    const norms = [0, 1, 2].map((c) => Math.hypot(...[0, 1, 2, 3].map((i) => q.data[i * 3 + c]!)));
    assert.deepEqual(norms.map((n) => Math.round(n * 1e4) / 1e4), [1, 0, 0], "the repeated and scaled columns are zero");
  });
});

describe("semantic trainer and model", () => {
  const { model, stats } = train(corpus());

  test("training is deterministic: the same documents give the same bytes", () => {
    assert.ok(model.serialize().equals(train(corpus()).model.serialize()));
    assert.equal(stats.documentsSeen, DOCS_PER_TOPIC * Object.keys(TOPICS).length);
    assert.ok(stats.vocabulary > 40, `vocabulary ${stats.vocabulary}`);
    assert.ok(stats.dims > 0 && stats.dims <= stats.vocabulary / 4, `a small vocabulary gets few dimensions: ${stats.dims}`);
  });

  test("words used together are neighbours; inflections and other topics are not", () => {
    const near = model.nearest("expiration", 5, 0).map((n) => n.term);
    assert.ok(near.includes("expire") || near.includes("ttl"), `neighbours of expiration: ${near}`);
    for (const other of ["password", "request", "transaction"]) assert.ok(!near.includes(other), `${other} in ${near}`);
    const ofExpire = model.nearest("expire", 10, 0).map((n) => n.term);
    assert.ok(!ofExpire.includes("expired") && !ofExpire.includes("expires"), `inflections kept: ${ofExpire}`);
    assert.deepEqual(model.nearest("unknownword", 5, 0), []);
  });

  test("a file about the query's subject outranks an unrelated one, without sharing its words", async () => {
    const related = model.embed(["cache", "entry", "ttl", "stale", "evict", "stale"]);
    const unrelated = model.embed(["login", "user", "password", "hash", "session"]);
    const scores = denseScores(model, new Map([[1, related], [2, unrelated]]), ["expiration"]);
    assert.equal([...scores.keys()][0], 1, `scores ${[...scores]}`);
    assert.ok((scores.get(1) ?? 0) > (scores.get(2) ?? 0));
    assert.deepEqual(denseScores(model, new Map([[1, related]]), ["nothing", "known"]).size, 0, "no known sub-word: no scores");
    assert.deepEqual([...denseScores(model, new Map([[1, related], [2, unrelated]]), ["expiration"], [2]).keys()].includes(1), false);
  });

  test("query expansion adds related terms, discounted and labelled, never the query's own or their inflections", () => {
    const expanded = expandQuery(model, ["expiration", "check"]);
    const terms = expanded.map((e) => e.term);
    assert.ok(terms.includes("expire") || terms.includes("ttl") || terms.includes("stale"), `expansions: ${terms}`);
    for (const e of expanded) {
      assert.ok(e.weight > 0 && e.weight < 1, `weight ${e.weight}`);
      assert.equal(e.retrieval, SEMANTIC_RETRIEVAL);
      assert.ok(["expiration", "check"].includes(e.from));
      assert.ok(!["expiration", "check", "expirations", "checks", "checked"].includes(e.term));
    }
    assert.equal(new Set(terms).size, terms.length, "each expansion once");
    assert.equal(expandQuery(model, ["expire"]).some((e) => lightStem(e.term) === lightStem("expire")), false);
  });

  test("serialize/deserialize round trip", () => {
    const back = SemanticModel.deserialize(model.serialize());
    assert.equal(back.dims, model.dims);
    assert.deepEqual(back.vocab, model.vocab);
    assert.deepEqual(back.vectors, model.vectors);
    assert.deepEqual(back.idf, model.idf);
    assert.deepEqual(back.center, model.center);
    assert.deepEqual(back.nearest("ttl", 5, 0), model.nearest("ttl", 5, 0));
    const bytes = model.serialize();
    assert.throws(() => SemanticModel.deserialize(bytes.subarray(0, bytes.length - 4)), /truncated or corrupt/);
    assert.throws(() => SemanticModel.deserialize(Buffer.from("not a model at all, just text")), /not a serialized model/);
  });

  test("a corpus over the token budget is sampled by whole documents, reproducibly", () => {
    const docs = corpus(11);
    const budget = { ...SMALL, maxTokens: 2000 };
    const a = train(docs, budget);
    assert.ok(a.stats.sampleLevel > 0 && a.stats.documentsKept < a.stats.documentsSeen);
    assert.ok(a.stats.tokensKept <= 2000);
    assert.ok(a.model.serialize().equals(train(docs, budget).model.serialize()));
  });

  test("files added with an id come back embedded, sampled out of training or not", () => {
    const docs = corpus(5);
    const t = new SemanticTrainer({ ...SMALL, maxTokens: 4000 });
    docs.forEach((d, i) => t.add(d, i % 2 === 0 ? { id: 1000 + i, terms: [...new Set(d)] } : i % 3 === 0 ? { id: 1000 + i } : undefined));
    const { model: m, stats: s, fileVectors } = t.finish();
    assert.ok(s.documentsKept < s.documentsSeen, "some files were left out of training");
    const expected = docs.flatMap((_, i) => (i % 2 === 0 || i % 3 === 0 ? [1000 + i] : []));
    assert.deepEqual([...fileVectors.keys()], expected);
    for (const i of [0, 3, 4]) {
      const want = m.embed([...new Set(docs[i])]);
      assert.deepEqual([...fileVectors.get(1000 + i)!].map((x) => x.toFixed(5)), [...want].map((x) => x.toFixed(5)), `file ${i}`);
    }
  });

  test("too little text gives an empty model that answers nothing", () => {
    const { model: empty } = train([["one", "two"]]);
    assert.equal(empty.dims, 0);
    assert.deepEqual(empty.nearest("one", 3, 0), []);
    assert.equal(empty.embed(["one"]).length, 0);
    assert.equal(denseScores(empty, new Map([[1, new Float32Array(0)]]), ["one"]).size, 0);
    assert.ok(SemanticModel.deserialize(empty.serialize()).vocab.length === 0);
  });

  test("a finished trainer refuses more input", () => {
    const t = new SemanticTrainer(SMALL);
    t.add(["a", "b"]);
    t.finish();
    assert.throws(() => t.add(["c"]), /already finished/);
  });

  test("the built-in provider embeds text through the model", async () => {
    const provider = builtinProvider(model, (text) => text.toLowerCase().split(/[^a-z]+/).filter(Boolean));
    const [v] = await provider.embed(["cache TTL stale"]);
    assert.deepEqual(v, model.embed(["cache", "ttl", "stale"]));
    assert.equal(provider.kind, "builtin");
  });
});

const META: IndexMeta = { repoId: "acme/semantic", rootPath: "/repo", baseCommit: "b".repeat(40), branch: "main", dirty: false, extractorVersion: "1" };
const STATS = { files: 3, indexedFiles: 3, skippedFiles: 0, bytes: 30, indexedBytes: 30, durationMs: 1 };


describe("semantic data in the SQLite store", () => {
  let dir: string;
  let path: string;
  let store: SqliteStore;
  const { model, stats } = train(corpus());
  const meta: SemanticMeta = { modelFormat: MODEL_FORMAT, vectors: { provider: "builtin", model: null, dims: model.dims }, training: stats };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "repoctx-semantic-test-"));
    path = join(dir, "index.db");
    store = SqliteStore.open(path);
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Rows left in the semantic tables for an index, read behind the store's back. */
  function rows(indexId: string): { models: number; vectors: number } {
    const raw = new Database(path, { readonly: true });
    try {
      const count = (table: string) => (raw.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE repo_index_id = ?`).get(indexId) as { n: number }).n;
      return { models: count("repo_semantic"), vectors: count("repo_file_vector") };
    } finally {
      raw.close();
    }
  }

  async function build(withMeta = meta, repoId = META.repoId): Promise<{ indexId: string; ids: Map<string, number> }> {
    const indexId = await store.beginIndex({ ...META, repoId });
    await store.addFiles(indexId, [textFile("cache.ts", "ttl stale"), textFile("auth.ts", "login password"), textFile("http.ts", "request")]);
    const { files } = await store.candidateFiles(indexId, { fragments: [] }, 10);
    const ids = new Map(files.map((f) => [f.path, f.id]));
    const vectors = new Map([
      [ids.get("cache.ts")!, model.embed(["cache", "ttl", "stale", "evict"])],
      [ids.get("auth.ts")!, model.embed(["login", "user", "password"])],
      [ids.get("http.ts")!, model.embed(["parse", "request", "headers"])],
    ]);
    await store.putSemantic(indexId, model.serialize(), vectors, withMeta);
    return { indexId, ids };
  }

  test("model, metadata and vectors round trip; subsets and replacements", async () => {
    const { indexId, ids } = await build();
    await store.publishIndex(indexId, "v1", STATS);
    const stored = await store.getSemantic(indexId);
    assert.ok(stored);
    assert.ok(stored.model.equals(model.serialize()));
    assert.deepEqual(stored.meta, meta);
    const all = await store.fileVectors(indexId);
    assert.equal(all.size, 3);
    assert.deepEqual(all.get(ids.get("auth.ts")!), model.embed(["login", "user", "password"]));
    const some = await store.fileVectors(indexId, [ids.get("http.ts")!, 999_999]);
    assert.deepEqual([...some.keys()], [ids.get("http.ts")]);

    const replaced = model.embed(["expire", "ttl"]);
    await store.putFileVectors(indexId, new Map([[ids.get("http.ts")!, replaced]]));
    assert.deepEqual((await store.fileVectors(indexId, [ids.get("http.ts")!])).get(ids.get("http.ts")!), replaced);
    await assert.rejects(store.putFileVectors(indexId, new Map([[ids.get("http.ts")!, new Float32Array(3)]])), /dimensions/);
    await assert.rejects(store.putFileVectors(indexId, new Map([[999_999, replaced]])), /not in index/);
    assert.equal(await store.getSemantic("no-such-index"), null);
  });

  test("the query side loads an index's model once per version and ranks its files", async () => {
    const index = (await store.getReadyIndex(META.repoId))!;
    const ctx = { store, index, policy: defaultReadPolicy() };
    const first = loadSemantic(ctx);
    assert.equal(loadSemantic(ctx), first, "cached per index version");
    const loaded = await first;
    assert.ok(loaded);
    const ranked = denseScores(loaded.model, loaded.vectors, ["expiration"]);
    const paths = new Map((await store.candidateFiles(index.id, { fragments: [] }, 10)).files.map((f) => [f.id, f.path]));
    assert.notEqual(paths.get([...ranked.keys()][0]!), "auth.ts");
    assert.notEqual(loadSemantic({ ...ctx, index: { ...index, indexVersion: "v2" } }), first, "a new version reloads");
    // An index written with another model format answers as one without a model (a reindex trains a new one).
    const { indexId: older } = await build({ ...meta, modelFormat: MODEL_FORMAT + 1 }, "acme/older-format");
    await store.publishIndex(older, "old", STATS);
    assert.equal(await loadSemantic({ ...ctx, index: (await store.getIndex(older))! }), null);
  });

  test("deleting a file, failing a build or superseding an index drops its semantic rows", async () => {
    const old = (await store.getReadyIndex(META.repoId))!;
    await store.applyDelta(old.id, { meta: { baseCommit: null, branch: null, dirty: true }, remove: ["auth.ts"], upsert: [], knowledge: null, indexVersion: "v1b", stats: STATS });
    assert.deepEqual(rows(old.id), { models: 1, vectors: 2 }, "a removed file's vector goes with it");

    const failed = await build();
    await store.failIndex(failed.indexId, "simulated");
    assert.deepEqual(rows(failed.indexId), { models: 0, vectors: 0 });
    assert.equal(await loadSemantic({ store, index: (await store.getIndex(failed.indexId))!, policy: defaultReadPolicy() }), null);

    const next = await build();
    await store.publishIndex(next.indexId, "v2", STATS);
    assert.deepEqual(rows(old.id), { models: 0, vectors: 0 }, "the superseded index's rows are gone");
    assert.deepEqual(rows(next.indexId), { models: 1, vectors: 3 });
  });
});

/** A local embeddings server: vectors derived from the text, so answers are checkable; behaviour per model name. */
interface Seen {
  auth: string | undefined;
  inputs: string[][];
}

function vectorOf(text: string): number[] {
  return [text.length, [...text].reduce((n, c) => n + c.charCodeAt(0), 0) % 97, 1];
}

function startServer(seen: Seen): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      seen.auth = req.headers.authorization;
      if (req.url !== "/v1/embeddings" || req.method !== "POST") {
        res.writeHead(404).end();
        return;
      }
      const { model, input } = JSON.parse(body) as { model: string; input: string[] };
      seen.inputs.push(input);
      if (model === "hang") return; // never answers: the client's timeout must fire
      if (model === "broken") {
        res.writeHead(200, { "content-type": "application/json" }).end("{not json");
        return;
      }
      if (model === "failing") {
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `model overloaded for ${seen.auth}` } }));
        return;
      }
      if (model === "short") {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ data: [] }));
        return;
      }
      // Answered in reverse order: the client must place vectors by their index.
      const data = input.map((text, index) => ({ object: "embedding", index, embedding: vectorOf(text) })).reverse();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data, model }));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

describe("OpenAI-compatible embeddings provider", () => {
  const KEY = "sk-test-secret-123";
  const seen: Seen = { auth: undefined, inputs: [] };
  let server: Server;
  let url: string;
  before(async () => {
    server = await startServer(seen);
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const config = (model: string, extra: Record<string, unknown> = {}) =>
    PolicyFileSchema.parse({ semantic: { provider: "openai_compatible", url, model, apiKeyEnv: "EMBED_KEY", ...extra } }).semantic;

  test("embeds in batches, in input order, unit length, with the key from the named variable", async () => {
    seen.inputs = [];
    const provider = openAiCompatibleProvider({ url: `${url}/`, model: "ok", apiKey: KEY, timeoutMs: 5000, batchSize: 2 });
    const texts = ["alpha", "beta", "", "delta", "epsilon"];
    const vectors = await provider.embed(texts);
    assert.deepEqual(seen.inputs.map((b) => b.length), [2, 2, 1], "batches of two");
    assert.equal(seen.auth, `Bearer ${KEY}`);
    texts.forEach((t, i) => {
      const raw = vectorOf(t.length > 0 ? t : " ");
      const norm = Math.hypot(...raw);
      assert.deepEqual([...vectors[i]!].map((x) => x.toFixed(5)), raw.map((x) => (x / norm).toFixed(5)), `vector ${i}`);
    });
    assert.deepEqual(await provider.embed([]), []);
    assert.equal(JSON.stringify(provider).includes(KEY), false, "the key is not a property");
  });

  test("the configured provider reads its key from the environment, or says which variable is missing", async () => {
    const provider = createEmbeddingProvider(config("ok"), { EMBED_KEY: KEY }, () => assert.fail("builtin not wanted"));
    assert.equal(provider.kind, "openai_compatible");
    assert.equal((await provider.embed(["x"])).length, 1);
    assert.equal(seen.auth, `Bearer ${KEY}`);
    assert.throws(() => createEmbeddingProvider(config("ok"), {}, () => assert.fail()), (e: unknown) => e instanceof EmbeddingProviderError && e.kind === "config" && /EMBED_KEY/.test(e.message));
    const builtin = builtinProvider(train(corpus()).model, (t) => [t]);
    assert.equal(createEmbeddingProvider(PolicyFileSchema.parse({}).semantic, {}, () => builtin), builtin);
  });

  test("HTTP errors, bad JSON, wrong shapes and timeouts are clear errors that never show the key", async () => {
    const failing = (model: string, timeoutMs = 5000) => openAiCompatibleProvider({ url, model, apiKey: KEY, timeoutMs }).embed(["a", "b"]);
    const expect = async (p: Promise<unknown>, kind: string, pattern: RegExp) => {
      await assert.rejects(p, (e: unknown) => {
        assert.ok(e instanceof EmbeddingProviderError, String(e));
        assert.equal(e.kind, kind);
        assert.match(e.message, pattern);
        assert.equal(e.message.includes(KEY), false, `key leaked: ${e.message}`);
        assert.equal(e.message.includes("127.0.0.1"), false, `host leaked: ${e.message}`);
        return true;
      });
    };
    await expect(failing("failing"), "http", /HTTP 500: model overloaded for Bearer \[redacted\]/);
    await expect(failing("broken"), "invalid_response", /invalid JSON/);
    await expect(failing("short"), "invalid_response", /0 embeddings for 2 inputs/);
    await expect(failing("ok", 5000).then(() => openAiCompatibleProvider({ url, model: "ok", dimensions: 8, timeoutMs: 5000 }).embed(["a"])), "invalid_response", /3 dimensions, not 8/);
    await expect(failing("hang", 200), "timeout", /did not answer within 200 ms/);
    await expect(openAiCompatibleProvider({ url: `${url}/elsewhere`, model: "ok", timeoutMs: 5000 }).embed(["a"]), "http", /HTTP 404/);
  });

  test("endpoint paths and operator configuration", () => {
    assert.equal(embeddingsEndpoint("http://h:1"), "http://h:1/v1/embeddings");
    assert.equal(embeddingsEndpoint("http://h:1/v1/"), "http://h:1/v1/embeddings");
    assert.equal(PolicyFileSchema.parse({}).semantic.provider, "builtin");
    const missing = PolicyFileSchema.safeParse({ semantic: { provider: "openai_compatible" } });
    assert.equal(missing.success, false);
    assert.deepEqual(missing.error?.issues.map((i) => i.path.join(".")).sort(), ["semantic.model", "semantic.url"]);
    assert.equal(PolicyFileSchema.safeParse({ semantic: { provider: "openai_compatible", url: "file:///etc/passwd", model: "m" } }).success, false);
    assert.equal(PolicyFileSchema.safeParse({ semantic: { apiKey: "sk-inline" } }).success, false, "no inline keys");
  });
});
