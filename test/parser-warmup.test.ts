import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { IndexUpdater, buildIndex } from "../src/indexer/pipeline.js";
import { ExtractionPool } from "../src/indexer/symbols/pool.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { CLI } from "./helpers/cli.js";
import { buildGoldenRepo, commitFiles, type BuiltRepo } from "./helpers/fixture.js";

/** A server readies its parser while idle, for the first edit it sees; an updater shares the server's extractor. */
describe("the parser, readied before the first edit", () => {
  test("an in-process pool warms the languages it is given (and ignores ones without a grammar)", async () => {
    const pool = await ExtractionPool.create(0);
    assert.deepEqual(pool.readied(), []);
    await pool.warm(["typescript", "no-such-language"]);
    assert.deepEqual(pool.readied(), ["typescript"], "the grammar is loaded before any file asks for it");
    const a = await pool.analyze("typescript", "src/a.ts", "export function warmed(): number {\n  return 1;\n}\n");
    assert.equal(a.extraction.status, "ok");
    assert.deepEqual(a.extraction.symbols.map((s) => s.name), ["warmed"]);
    await pool.close();
  });

  test("an updater given the server's extractor uses it and leaves it open when it closes", async () => {
    const base = mkdtempSync(join(tmpdir(), "repoctx-warm-updater-"));
    const root = join(base, "repo");
    commitFiles(root, { "src/a.ts": "export const a = 1;\n" }, "initial");
    const store = SqliteStore.open(join(base, "index.db"));
    let closed = 0;
    const shared = ExtractionPool.create(0).then((pool) => {
      const close = pool.close.bind(pool);
      pool.close = async () => {
        closed += 1;
        await close();
      };
      return pool;
    });
    let asked = 0;
    try {
      await buildIndex({ root, store, maxFileBytes: 1 << 20 });
      const updater = new IndexUpdater({ root, store, maxFileBytes: 1 << 20 }, () => (asked++, shared));
      writeFileSync(join(root, "src/a.ts"), "export function edited(): number {\n  return 2;\n}\n");
      const r = await updater.update(["src/a.ts"]);
      assert.ok(r, "an in-place update");
      assert.equal(asked, 1);
      await updater.close();
      assert.equal(closed, 0, "the updater does not close the extractor it was given");
      const after = await (await shared).analyze("typescript", "src/b.ts", "export const b = 1;\n");
      assert.equal(after.extraction.extractor, "tree-sitter", "the shared extractor still parses after the updater closed");
      const symbols = await store.findSymbols(r.indexId, { name: "edited", limit: 10 });
      assert.equal(symbols.length, 1);
    } finally {
      await (await shared).close();
      await store.close();
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("serve", () => {
  let repo: BuiltRepo;
  let dir: string;
  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-warm-serve-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("readies the parser for the index's most common languages once it has been up a moment", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--quiet", "--repo", repo.root, "--store", join(dir, "index.db")], stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
    const client = new Client({ name: "warm-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      const r = await client.callTool({ name: "search_code", arguments: { query: "quote" } });
      assert.equal(r.isError, false);
      const deadline = Date.now() + 30_000;
      while (!stderr.includes("parser ready") && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
      const line = stderr.split("\n").find((l) => l.includes("parser ready"));
      assert.ok(line, stderr);
      const languages = /languages[=:"\s[]*([^\]}]*)/.exec(line)?.[1] ?? "";
      assert.ok(languages.length > 0, line);
    } finally {
      await client.close();
    }
  });
});
