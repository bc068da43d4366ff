import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI } from "./helpers/cli.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";

type Env = { ok: boolean; indexVersion: string; freshness: string; data: { results: { path: string }[] } };

describe("serve --watch", () => {
  let repo: BuiltRepo;
  let dir: string;
  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-watch-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("a new file becomes searchable without a restart; the old index answers until then", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "serve", "--watch", "--quiet", "--repo", repo.root, "--store", join(dir, "index.db")],
      stderr: "pipe",
    });
    const client = new Client({ name: "watch-test", version: "0.0.0" });
    await client.connect(transport);
    const search = async (): Promise<Env> =>
      (await client.callTool({ name: "search_code", arguments: { verbosity: "full", query: "freshlyAddedFunction" } })).structuredContent as Env;
    try {
      const before = await search();
      assert.equal(before.ok, true);
      assert.deepEqual(before.data.results, []);
      writeFileSync(join(repo.root, "web/src/fresh.ts"), "export function freshlyAddedFunction(): number {\n  return 1;\n}\n");
      let after = before;
      const deadline = Date.now() + 60_000;
      while (after.indexVersion === before.indexVersion && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        after = await search();
        assert.equal(after.ok, true, "queries keep answering during the rebuild");
        // Until the rebuild is published, the new file is already found: from the working-tree overlay.
        if (after.indexVersion === before.indexVersion && after.data.results.length > 0) assert.equal(after.freshness, "working_tree");
      }
      assert.deepEqual(after.data.results.map((r) => r.path), ["web/src/fresh.ts"]);
      assert.notEqual(after.indexVersion, before.indexVersion);
      assert.equal(after.freshness, "base_commit", "after the rebuild the file is in the index");
    } finally {
      await client.close();
    }
  });
});
