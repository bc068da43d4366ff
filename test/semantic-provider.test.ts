import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { defaultOperatorConfig, defaultReadPolicy } from "../src/config/schema.js";
import { buildIndex, updateIndex } from "../src/indexer/pipeline.js";
import { externalEmbeddings } from "../src/sources/embeddings.js";
import { silentLogger } from "../src/core/log.js";
import type { Envelope } from "../src/service/envelope.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";
import { openClient } from "./helpers/harness.js";
import { currentHead } from "../src/sources/git-head.js";

const DIMS = 16;

/** A deterministic stand-in for an embeddings model: letter counts folded into 16 dimensions, unit length. */
function embedText(text: string): number[] {
  const v = new Array<number>(DIMS).fill(0);
  for (const ch of text.toLowerCase()) if (ch >= "a" && ch <= "z") v[(ch.charCodeAt(0) - 97) % DIMS]! += 1;
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

describe("an operator's OpenAI-compatible embeddings endpoint makes the file vectors and embeds the query", () => {
  let repo: BuiltRepo;
  let dir: string;
  let server: Server;
  let url: string;
  let requests = 0;
  /** While set, the endpoint answers HTTP 503. */
  let failing = false;

  before(async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-embed-"));
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        requests += 1;
        if (failing) {
          res.statusCode = 503;
          res.end("overloaded");
          return;
        }
        const input = (JSON.parse(body) as { input: string[] }).input;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ data: input.map((t, index) => ({ index, embedding: embedText(t) })) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("index with the endpoint, then a semantic search embeds the query through it", async () => {
    const operator = { ...defaultOperatorConfig(), semantic: { provider: "openai_compatible" as const, url, model: "letters-16", timeoutMs: 5000 } };
    const store = SqliteStore.open(join(dir, "with.db"));
    const r = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20, embeddings: externalEmbeddings(operator.semantic, {}) });
    const stored = (await store.getSemantic(r.indexId))!;
    assert.equal(stored.meta.vectors.provider, "openai_compatible");
    assert.equal(stored.meta.vectors.model, "letters-16");
    assert.equal(stored.meta.vectors.dims, DIMS);
    assert.ok(requests > 0);
    const client = await openClient({ store, root: r.repo.rootPath, policy: defaultReadPolicy(), operator, logger: silentLogger, readHead: () => currentHead(r.repo.rootPath) });
    const before = requests;
    const res = await client.callTool({ name: "search_code", arguments: { verbosity: "full", query: "where do we validate quote expiration", semantic: true } });
    const env = JSON.parse((res.content as { text: string }[])[0]!.text) as Envelope;
    assert.equal(env.ok, true);
    assert.equal(requests, before + 1, "the query was embedded by the endpoint");
    assert.ok(!env.warnings.some((w) => w.code === "semantic_provider_unavailable"));
    await client.close();
    // A server without the endpoint configured says it cannot use the index's vectors, and still ranks.
    const plain = await openClient({ store, root: r.repo.rootPath, policy: defaultReadPolicy(), logger: silentLogger, readHead: () => currentHead(r.repo.rootPath) });
    const res2 = await plain.callTool({ name: "search_code", arguments: { verbosity: "full", query: "where do we validate quote expiration", semantic: true } });
    const env2 = JSON.parse((res2.content as { text: string }[])[0]!.text) as Envelope;
    assert.equal(env2.ok, true);
    assert.ok(env2.warnings.some((w) => w.code === "semantic_provider_unavailable"));
    assert.ok((env2.data.results as unknown[]).length > 0);
    await plain.close();
    await store.close();
  });

  test("an endpoint that is down does not fail the index: the built-in vectors serve and the index says why", async () => {
    const store = SqliteStore.open(join(dir, "down.db"));
    const down = externalEmbeddings({ provider: "openai_compatible", url: "http://127.0.0.1:9", model: "m", timeoutMs: 1000 }, {});
    const r = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20, embeddings: down });
    const stored = (await store.getSemantic(r.indexId))!;
    assert.equal(stored.meta.vectors.provider, "builtin");
    assert.match(stored.meta.fallback ?? "", /^network: /);
    await store.close();
  });

  test("an in-place update while the endpoint is down records why the changed files have no vectors", async () => {
    const store = SqliteStore.open(join(dir, "update.db"));
    const embeddings = externalEmbeddings({ provider: "openai_compatible", url, model: "letters-16", timeoutMs: 5000 }, {});
    const r = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20, embeddings });
    const readme = join(repo.root, "README.md");
    const original = readFileSync(readme, "utf8");
    try {
      appendFileSync(readme, "\nQuote expiry is checked at checkout.\n");
      failing = true;
      const updated = await updateIndex({ root: repo.root, store, maxFileBytes: 1 << 20, embeddings });
      assert.ok(updated, "the change was applied in place");
      const stats = (await store.getReadyIndex(r.repo.repoId))!.stats!;
      assert.equal(stats.semanticUpdate?.files, 1);
      assert.match(stats.semanticUpdate?.reason ?? "", /^http: /);
      failing = false;
      appendFileSync(readme, "Prices are rounded half-even.\n");
      await updateIndex({ root: repo.root, store, maxFileBytes: 1 << 20, embeddings });
      assert.equal((await store.getReadyIndex(r.repo.repoId))!.stats!.semanticUpdate, undefined, "a later good update clears it");
    } finally {
      failing = false;
      writeFileSync(readme, original);
      await store.close();
    }
  });
});

describe("the built-in embedding is trained only when the operator asks", () => {
  let repo: BuiltRepo;
  let dir: string;
  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-train-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("no model by default: a semantic search says so and ranks without it; semantic: true trains one", async () => {
    const plain = SqliteStore.open(join(dir, "plain.db"));
    const built = await buildIndex({ root: repo.root, store: plain, maxFileBytes: 1 << 20 });
    assert.equal(await plain.getSemantic(built.indexId), null);
    const client = await openClient({ store: plain, root: built.repo.rootPath, policy: defaultReadPolicy(), logger: silentLogger, readHead: () => currentHead(repo.root) });
    try {
      const res = await client.callTool({ name: "search_code", arguments: { query: "how are quotes priced and when do they expire?", semantic: true, verbosity: "full" } });
      const env = res.structuredContent as unknown as Envelope;
      assert.equal(env.ok, true);
      assert.ok(env.warnings.some((w) => w.code === "semantic_unavailable" && /semantic\.train: true/.test(w.message)), JSON.stringify(env.warnings));
      assert.ok((env.data as { results: unknown[] }).results.length > 0, "ranked without the embedding");
    } finally {
      await client.close();
      await plain.close();
    }
    const trained = SqliteStore.open(join(dir, "trained.db"));
    const again = await buildIndex({ root: repo.root, store: trained, maxFileBytes: 1 << 20, semantic: true });
    const stored = await trained.getSemantic(again.indexId);
    assert.ok(stored && stored.meta.vectors.provider === "builtin" && stored.meta.vectors.dims > 0);
    assert.equal(again.indexVersion, built.indexVersion, "training changes no row the version digests");
    await trained.close();
  });
});
