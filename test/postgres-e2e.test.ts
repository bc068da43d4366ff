import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { EXIT } from "../src/cli/exit-codes.js";
import { storeLabel, withoutStoreSecret } from "../src/store/store-url.js";
import { defaultOperatorConfig, defaultReadPolicy } from "../src/config/schema.js";
import { lazyExtractor, overlayProvider } from "../src/sources/work-tree-overlay.js";
import { buildIndex, type IndexResult } from "../src/indexer/pipeline.js";
import { silentLogger } from "../src/core/log.js";
import { createAuditSink } from "../src/service/audit.js";
import { openStore } from "../src/store/open.js";
import type { Store } from "../src/store/store.js";
import { CLI, runCli } from "./helpers/cli.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";
import { openClient } from "./helpers/harness.js";
import { dropPgSchema, freshPgStoreUrl, pgSkip } from "./helpers/pg.js";
import { TASKS_DIR, everyToolCall } from "./helpers/tool-calls.js";
import { currentHead } from "../src/sources/git-head.js";

/**
 * The golden repository indexed by the real pipeline into SQLite and into PostgreSQL, served by the real server
 * to a real MCP client: every tool, resource and audit record must come out the same from both stores. Then the
 * built CLI against a PostgreSQL URL.
 */

/** A context package's id is random per call (and with it the token counts of the text that quotes it). */
const PACKAGE_ID = /ctx_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * An envelope without what legitimately differs between two stores, or two builds of one tree: when each index was
 * built and how long it took, the store's own description (and the redaction that applied to it), a context
 * package's random id, the time it was made, and token counts of text that quotes the id.
 */
function comparable(tool: string, text: string): Record<string, unknown> {
  const env = JSON.parse(text.replace(PACKAGE_ID, "ctx_ID")) as { data: Record<string, Record<string, unknown> | undefined> };
  if (tool === "inspect_index" && env.data.index) {
    for (const key of ["builtAt", "buildDurationMs", "store", "redacted", "redactionReasons"]) delete env.data.index[key];
  }
  if (tool === "build_context_package" && env.data.manifest && env.data.package) {
    delete env.data.manifest.createdAt;
    delete env.data.manifest.tokenEstimate;
    delete env.data.package.blockTokens;
    delete (env.data.package.budget as Record<string, unknown> | undefined)?.usedTokens;
  }
  return env;
}

interface Served {
  store: Store;
  index: IndexResult;
  client: Client;
}

describe("PostgreSQL end to end: every answer equals SQLite's", { skip: pgSkip() }, () => {
  let repo: BuiltRepo;
  let dir: string;
  let pgUrl: string;
  let sqlite: Served;
  let postgres: Served;
  const policy = defaultReadPolicy();

  /** Indexes the golden repository into the store at `location` and serves it, as `repoctx serve` would. */
  const serve = async (location: string): Promise<Served> => {
    const store = await openStore(location);
    const index = await buildIndex({ root: repo.root, store, maxFileBytes: policy.maxIndexedFileBytes });
    const root = index.repo.rootPath;
    const client = await openClient({
      store,
      root,
      policy,
      operator: { ...defaultOperatorConfig(), taskSources: [{ type: "local", dir: TASKS_DIR }] },
      logger: silentLogger,
      readHead: () => currentHead(root),
      overlay: overlayProvider(root, store, policy.maxIndexedFileBytes, lazyExtractor()),
      audit: createAuditSink({ store, preview: true, logger: silentLogger }),
    });
    return { store, index, client };
  };

  before(async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-pg-e2e-"));
    pgUrl = freshPgStoreUrl();
    sqlite = await serve(join(dir, "index.db"));
    postgres = await serve(pgUrl);
  });
  after(async () => {
    for (const s of [sqlite, postgres]) {
      await s?.client.close();
      await s?.store.close();
    }
    if (pgUrl) await dropPgSchema(pgUrl);
    rmSync(dir, { recursive: true, force: true });
    repo?.cleanup();
  });

  test("the same index: version, rows, summary, symbols", async () => {
    assert.equal(postgres.index.indexVersion, sqlite.index.indexVersion);
    const { durationMs: _a, ...pgStats } = postgres.index.stats;
    const { durationMs: _b, ...sqliteStats } = sqlite.index.stats;
    assert.deepEqual(pgStats, sqliteStats);
    const view = async ({ store, index }: Served) => ({
      files: await store.listFiles(index.indexId, { includeSkipped: true }),
      summary: await store.summarize(index.indexId),
      symbols: await store.symbolSummary(index.indexId),
      digest: await store.digestRows(index.indexId),
      knowledge: await store.getKnowledge(index.indexId),
      docs: await store.listDocs(index.indexId, { limit: 1000 }),
      instructions: await store.listInstructionFiles(index.indexId),
      dirty: await store.getDirtyPaths(index.indexId),
    });
    assert.deepEqual(await view(postgres), await view(sqlite));
  });

  test("every tool answers alike", async () => {
    const files = (await sqlite.store.listFiles(sqlite.index.indexId, { includeSkipped: true })).map((f) => f.path);
    const calls = everyToolCall(files, repo.commit);
    const { tools } = await postgres.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), (await sqlite.client.listTools()).tools.map((t) => t.name));
    let made = 0;
    for (const t of tools) {
      assert.ok(calls[t.name], `no arguments for tool ${t.name}: add them to test/helpers/tool-calls.ts`);
      for (const args of calls[t.name]!) {
        const text = async ({ client }: Served) => ((await client.callTool({ name: t.name, arguments: { verbosity: "full", ...args } })).content as { text: string }[])[0]!.text;
        const [fromSqlite, fromPostgres] = [await text(sqlite), await text(postgres)];
        assert.deepEqual(comparable(t.name, fromPostgres), comparable(t.name, fromSqlite), `${t.name} ${JSON.stringify(args).slice(0, 200)}`);
        made += 1;
      }
    }
    assert.ok(made > 100, `calls made: ${made}`);
    const okCalls = (await postgres.store.listAudit({ limit: 100_000 })).filter((r) => r.outcome === "ok").length;
    assert.ok(okCalls > made / 2, "most calls succeeded: the comparison is of answers, not of errors");
  });

  test("every resource and document reads alike", async () => {
    const { resources } = await sqlite.client.listResources();
    assert.deepEqual((await postgres.client.listResources()).resources, resources);
    const { docs } = await sqlite.store.listDocs(sqlite.index.indexId, { limit: 1000 });
    const uris = [...resources.map((r) => r.uri), ...docs.map((d) => `repo://docs/${encodeURIComponent(d.docId)}`)];
    assert.ok(uris.length > 5);
    for (const uri of uris) {
      const read = async ({ client }: Served) => JSON.stringify(await client.readResource({ uri })).replace(PACKAGE_ID, "ctx_ID");
      assert.equal(await read(postgres), await read(sqlite), uri);
    }
  });

  test("the audit logs record the same calls", async () => {
    const view = async ({ store }: Served) =>
      (await store.listAudit({ limit: 100_000 })).map((r) => ({ ...r, at: "", latencyMs: 0, preview: r.preview?.replace(PACKAGE_ID, "ctx_ID") ?? null }));
    const fromPostgres = await view(postgres);
    assert.ok(fromPostgres.length > 100);
    assert.deepEqual(fromPostgres, await view(sqlite));
  });
});

describe("the built CLI with a PostgreSQL store", { skip: pgSkip() }, () => {
  const PASSWORD = "s3cret-Cli-Pa55";
  let repo: BuiltRepo;
  let dir: string;
  let pgUrl: string;
  /** The same store URL with a password in it: the test server trusts local connections, so it is sent nowhere. */
  let withPassword: string;

  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-pg-cli-"));
    pgUrl = freshPgStoreUrl();
    const u = new URL(pgUrl);
    u.password = PASSWORD;
    withPassword = u.toString();
  });
  after(async () => {
    await dropPgSchema(pgUrl);
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  const noPassword = (...texts: string[]) => {
    for (const t of texts) assert.ok(!t.includes(PASSWORD), `the password is printed: ${t.slice(0, 400)}`);
  };

  test("index, then search, slice and inspect: the same output as with SQLite, no password anywhere", () => {
    const indexed = runCli(["index", repo.root, "--store", withPassword, "--json", "--quiet"]);
    assert.equal(indexed.status, 0, indexed.stderr);
    noPassword(indexed.stdout, indexed.stderr);
    const summary = JSON.parse(indexed.stdout) as { repoId: string; store: string; skippedFiles: number };
    assert.equal(summary.repoId, "acme/pricing-service");
    assert.equal(summary.skippedFiles, 4);
    assert.ok(summary.store.startsWith("postgres"), summary.store);
    const sqliteStore = join(dir, "index.db");
    assert.equal(runCli(["index", repo.root, "--store", sqliteStore, "--quiet"]).status, 0);

    for (const args of [
      ["search", "isQuoteExpired"],
      ["search", "quote with discount", "--mode", "hybrid"],
      ["symbol", "quote", "--refs"],
      ["slice", "services/pricing/src/main/java/com/acme/pricing/QuoteService.java", "--lines", "17:17"],
      ["owners", "web/src/quote.ts"],
    ]) {
      const fromPostgres = runCli([...args, "--repo", repo.root, "--store", withPassword]);
      const fromSqlite = runCli([...args, "--repo", repo.root, "--store", sqliteStore]);
      assert.equal(fromPostgres.status, 0, fromPostgres.stderr);
      assert.equal(fromPostgres.stdout, fromSqlite.stdout, args.join(" "));
      noPassword(fromPostgres.stdout, fromPostgres.stderr);
    }
    assert.match(runCli(["search", "isQuoteExpired", "--repo", repo.root, "--store", withPassword]).stdout, /QuoteService\.java/);

    const inspected = runCli(["inspect", "--json", "--repo", repo.root, "--store", withPassword]);
    assert.equal(inspected.status, 0, inspected.stderr);
    noPassword(inspected.stdout, inspected.stderr);
    const audit = runCli(["audit", "--json", "--repo", repo.root, "--store", withPassword]);
    assert.equal(audit.status, 0, audit.stderr);
    noPassword(audit.stdout, audit.stderr);
  });

  test("serve over stdio answers from the PostgreSQL store", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--tools", "all", "--repo", repo.root, "--store", withPassword], stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "pg-stdio-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const res = await client.callTool({ name: "search_code", arguments: { verbosity: "full", query: "isQuoteExpired" } });
      const env = res.structuredContent as { ok: boolean; data: { results: { path: string }[] } };
      assert.equal(env.ok, true, JSON.stringify(env));
      assert.equal(env.data.results[0]!.path, "services/pricing/src/main/java/com/acme/pricing/QuoteService.java");
      const inspect = await client.callTool({ name: "inspect_index", arguments: { verbosity: "full" } });
      noPassword(JSON.stringify(inspect));
    } finally {
      await client.close();
    }
    noPassword(stderr);
  });
});

describe("the built CLI with a PostgreSQL server that is down", () => {
  const PASSWORD = "s3cret-Down-Pa55";
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "repoctx-pg-down-"));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test("every command exits with index_unavailable; the password is nowhere in the output", () => {
    // Port 1 on the loopback address: nothing listens there, the connection is refused at once.
    const down = `postgres://repoctx:${PASSWORD}@127.0.0.1:1/repoctx`;
    for (const args of [["search", "quote", "--repo", dir], ["index", dir, "--quiet"], ["audit", "--repo", dir], ["inspect", "--repo", dir]]) {
      const r = runCli([...args, "--store", down]);
      assert.equal(r.status, EXIT.index_unavailable, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /index_unavailable/);
      for (const t of [r.stdout, r.stderr]) assert.ok(!t.includes(PASSWORD), `${args[0]} prints the password: ${t}`);
    }
  });

  test("store locations print without their secrets", () => {
    assert.equal(storeLabel("/tmp/x/index.db"), "/tmp/x/index.db");
    assert.equal(storeLabel(`postgres://u:${PASSWORD}@db:5432/repo?schema=a&password=${PASSWORD}&sslmode=require`), "postgres://u@db:5432/repo?schema=a&sslmode=require");
    const encoded = `postgres://u:${encodeURIComponent("p@ss/word")}@db/repo`;
    assert.equal(withoutStoreSecret(`failed for ${encoded}: p@ss/word`, encoded), "failed for postgres://u@db/repo: ***");
    assert.equal(withoutStoreSecret("unrelated text", "/tmp/x/index.db"), "unrelated text");
  });
});
