import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildIndex } from "../src/indexer/pipeline.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { git } from "./helpers/fixture.js";

const MIB = 1024 * 1024;

describe("symbol extraction limits", () => {
  let dir: string;
  let store: SqliteStore;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), "repoctx-limits-"));
    const repo = join(dir, "repo");
    git(dir, ["init", "-q", "-b", "main", repo]);
    const big = Array.from({ length: 12000 }, (_, i) => `function helper${i}(a, b) { return a + b + ${i}; }\n`).join("");
    writeFileSync(join(repo, "big.js"), big);
    writeFileSync(join(repo, "small.js"), "export function tiny() { return helper1(1, 2); }\n");
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-q", "-m", "files"]);
    store = SqliteStore.open(join(dir, "index.db"));
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("files over the parse limit get lexical definitions and say why; smaller files are parsed", async () => {
    const r = await buildIndex({ root: join(dir, "repo"), store, maxFileBytes: MIB });
    const files = new Map((await store.listFiles(r.indexId)).map((f) => [f.path, f]));
    const big = files.get("big.js")!;
    assert.ok(big.sizeBytes > 512 * 1024);
    assert.equal(big.symbolStatus, "skipped");
    assert.equal(big.symbolExtractor, "lexical");
    assert.match(big.symbolDetail ?? "", /lexical definitions only/);
    const defs = await store.findSymbols(r.indexId, { name: "helper11999", limit: 5 });
    assert.deepEqual(defs.map((d) => [d.path, d.startLine, d.confidence]), [["big.js", 12000, "low"]]);
    assert.equal(files.get("small.js")!.symbolExtractor, "tree-sitter");
    const calls = await store.findReferences(r.indexId, { name: "helper1", kinds: ["call"], limit: 5 });
    assert.deepEqual(calls.map((c) => [c.path, c.enclosing]), [["small.js", "tiny"]]);
  });
});
