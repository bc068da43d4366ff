import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI } from "./helpers/cli.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";
import { ChangeLog, watchRepository } from "../src/cli/watch.js";
import { silentLogger } from "../src/core/log.js";

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

describe("watchRepository", () => {
  test("a rebuild is told the work-tree files that changed; a move inside .git leaves it to look at everything", async () => {
    const root = mkdtempSync(join(tmpdir(), "repoctx-watch-paths-"));
    mkdirSync(join(root, ".git/refs/heads"), { recursive: true });
    mkdirSync(join(root, "src"));
    const calls: (string[] | null)[] = [];
    const watcher = watchRepository(root, { logger: silentLogger, debounceMs: 300, fileDebounceMs: 30, rebuild: async (changed) => void calls.push(changed) });
    const settled = async (n: number): Promise<void> => {
      const deadline = Date.now() + 20_000;
      while (calls.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal(calls.length, n);
    };
    try {
      await watcher.ready;
      await settled(1);
      assert.equal(calls[0], null, "once every folder is watched, one look at everything (changes during the walk)");
      writeFileSync(join(root, "src/a.ts"), "export const a = 1;\n");
      writeFileSync(join(root, "b.md"), "# b\n");
      await settled(2);
      assert.deepEqual(calls[1], ["b.md", "src/a.ts"]);
      writeFileSync(join(root, "src/a.ts"), "export const a = 2;\n");
      writeFileSync(join(root, ".git/refs/heads/main"), "0".repeat(40) + "\n");
      await settled(3);
      assert.equal(calls[2], null);
      writeFileSync(join(root, ".git/index.lock"), "");
      writeFileSync(join(root, "b.md"), "# b again\n");
      await settled(4);
      assert.deepEqual(calls[3], ["b.md"], "git's own bookkeeping is not a change");
      // A folder made after the start is watched too; one that goes stops being watched.
      mkdirSync(join(root, "made/deep"), { recursive: true });
      await settled(5);
      assert.deepEqual(calls[4], ["made"]);
      await new Promise((r) => setTimeout(r, 200));
      writeFileSync(join(root, "made/deep/c.ts"), "export const c = 3;\n");
      await settled(6);
      assert.deepEqual(calls[5], ["made/deep/c.ts"]);
    } finally {
      watcher.close();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("a change log (what serve's overlay asks the watcher)", () => {
  test("names what moved since a look, and says when it cannot", () => {
    const log = new ChangeLog();
    assert.equal(log.epoch(), null, "not every folder watched yet");
    log.saw("a.ts", false);
    log.saw(null, true);
    const first = log.epoch()!;
    assert.equal(log.changedSince(first - 1), null, "what came before every folder was watched has no names");
    assert.deepEqual(log.changedSince(first), []);
    log.saw("src/b.ts", true);
    log.saw("src", true);
    log.saw("src/b.ts", true);
    assert.deepEqual(log.changedSince(first)!.sort(), ["src", "src/b.ts"]);
    const second = log.epoch()!;
    assert.deepEqual(log.changedSince(second), []);
    log.saw("c.ts", true);
    assert.deepEqual(log.changedSince(second), ["c.ts"]);
    log.saw(".git/HEAD", true);
    assert.equal(log.changedSince(second), null, "a commit or a checkout moves what git reports anywhere");
    const third = log.epoch()!;
    log.saw("d.ts", false);
    assert.equal(log.epoch(), null, "a folder could not be watched");
    assert.equal(log.changedSince(third), null);
  });
});
