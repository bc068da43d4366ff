import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defaultReadPolicy } from "../src/config/schema.js";
import { buildIndex, updateIndex } from "../src/indexer/pipeline.js";
import { silentLogger } from "../src/core/log.js";
import type { Envelope } from "../src/service/envelope.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { currentHead } from "../src/sources/git-head.js";
import { lazyExtractor, overlayProvider } from "../src/sources/work-tree-overlay.js";
import { git } from "./helpers/fixture.js";
import { openClient } from "./helpers/harness.js";
import { placeholderManifest, ZERO_HASH } from "./helpers/tool-calls.js";

/**
 * Every request-time read of the work tree meets what a hostile or odd repository holds: directories (one the index
 * lists, as git lists a submodule), symlinks to folders, into `.git`, to secret-suspect, binary, ignored and outside
 * files, FIFOs and device nodes. Each is answered with a category (never `internal_error`), none is read, and no
 * call waits on a FIFO. Served through the real MCP client, without and with the working-tree overlay.
 */

/** A FIFO that a read would wait on forever: a call that opened it would never return. */
const HANG_GUARD_MS = 60_000;
const GIT_CONFIG_MARK = "repoctx-test-git-config-mark";

const FILES: Record<string, string> = {
  "README.md": "# Paths\n\nA repository with odd files.\n",
  "AGENTS.md": "# Agents\n\n- Run `npm test` before every commit.\n",
  "src/a.ts": "export const alpha = 1;\n",
  "src/b.ts": "export const bravo = 2;\n",
  "src/c.ts": "export const charlie = 3;\n",
  "sub/notes.md": "# Notes\n\nnothing here\n",
  ".env": "API_URL=http://localhost\n",
  ".gitignore": "build/\n",
  "build/out.js": "console.log('ignored');\n",
};

const LINKS: Record<string, string> = {
  "link-a": "src/a.ts",
  "link-dir": "src",
  "link-git": ".git/config",
  "sub/link-git-up": "../.git/config",
  "link-env": ".env",
  "link-bin": "assets/logo.png",
  "link-ignored": "build/out.js",
  "link-devnull": "/dev/null",
};

function buildRepo(): { base: string; root: string } {
  const base = mkdtempSync(join(tmpdir(), "repoctx-paths-"));
  const root = join(base, "repo");
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, "assets"), { recursive: true });
  writeFileSync(join(root, "assets/logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]));
  for (const [path, target] of Object.entries(LINKS)) symlinkSync(target, join(root, path));
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["config", "repoctx.mark", GIT_CONFIG_MARK]);
  // A submodule entry (a gitlink) with its folder checked out: the index lists the folder itself.
  mkdirSync(join(root, "vendor/lib"), { recursive: true });
  writeFileSync(join(root, "vendor/lib/x.txt"), "vendored\n");
  git(root, ["update-index", "--add", "--cacheinfo", `160000,${"1234567890".repeat(4)},vendor/lib`]);
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "-m", "odd files"]);
  return { base, root };
}

/** A character device node like /dev/null at `at`, when this process may make one. */
function makeDevice(at: string): boolean {
  try {
    execFileSync("mknod", [at, "c", "1", "3"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

type Result = Envelope & { isError: boolean };

describe("work-tree reads: directories, symlinks, FIFOs and devices are categorized, never read", { timeout: HANG_GUARD_MS }, () => {
  let base: string;
  let root: string;
  let dir: string;
  let store: SqliteStore;
  let plain: Client;
  let overlaid: Client;
  let clock = 0;
  let device = false;
  let indexId: string;

  const callWith = async (client: Client, name: string, args: Record<string, unknown>): Promise<Result> => {
    clock += 5000; // past the overlay's cache: each call sees the work tree as it is now
    const res = await client.callTool({ name, arguments: { verbosity: "full", ...args } });
    const env = JSON.parse((res.content as { text: string }[])[0]!.text) as Envelope;
    return { ...env, isError: res.isError === true };
  };
  const slice = (client: Client, path: string) => callWith(client, "get_file_slice", { path });
  const category = (r: Result) => (r.data as { error?: { category: string; message: string } }).error?.category ?? "ok";
  const message = (r: Result) => (r.data as { error?: { message: string } }).error?.message ?? "";

  before(async () => {
    ({ base, root } = buildRepo());
    dir = mkdtempSync(join(tmpdir(), "repoctx-paths-store-"));
    store = SqliteStore.open(join(dir, "index.db"));
    const built = await buildIndex({ root, store, maxFileBytes: 1 << 20 });
    root = built.repo.rootPath;
    indexId = built.indexId;
    const deps = { store, root, policy: defaultReadPolicy(), logger: silentLogger, readHead: () => currentHead(root) };
    plain = await openClient(deps);
    overlaid = await openClient({ ...deps, overlay: overlayProvider(root, store, 1 << 20, lazyExtractor(), () => clock) });
  });
  after(async () => {
    await plain.close();
    await overlaid.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(base, { recursive: true, force: true });
  });

  test("the index saw what the tests rely on: the gitlink folder, and each symlink as a symlink", async () => {
    assert.equal((await store.getFile(indexId, "vendor/lib"))?.skipReason, "not_a_file");
    for (const path of Object.keys(LINKS)) {
      const want = path === "link-devnull" ? "symlink_outside_root" : "symlink";
      assert.equal((await store.getFile(indexId, path))?.skipReason, want, path);
    }
    assert.equal((await store.getFile(indexId, "build/out.js")), null, "ignored");
    assert.equal((await store.getFile(indexId, ".env"))?.isSecretSuspect, true);
  });

  test("without a work tree (a replica), links are followed as the index recorded them, under the same rules", async () => {
    const replica = await openClient({ store, root: join(base, "not-here"), policy: defaultReadPolicy(), logger: silentLogger, readHead: async () => null, workTree: false });
    try {
      const followed = await slice(replica, "link-a");
      assert.equal(followed.ok, true, message(followed));
      assert.equal((followed.data as { slice: { path: string; content: string } }).slice.path, "src/a.ts");
      assert.match((followed.data as { slice: { content: string } }).slice.content, /alpha/);
      const expected: Record<string, string> = { "link-git": "query_rejected", "sub/link-git-up": "query_rejected", ".git/config": "query_rejected", "link-dir": "not_found", "link-env": "query_rejected", "link-bin": "query_rejected", "link-ignored": "not_found", "link-devnull": "query_rejected" };
      for (const [path, want] of Object.entries(expected)) {
        const r = await slice(replica, path);
        assert.equal(category(r), want, `${path}: ${message(r)}`);
      }
    } finally {
      await replica.close();
    }
  });

  test("a directory is not_found, whether plain, listed by the index (a submodule) or behind a symlink", async () => {
    for (const client of [plain, overlaid]) {
      for (const path of ["src", "sub", "vendor/lib", "link-dir"]) {
        const r = await slice(client, path);
        assert.equal(category(r), "not_found", `${path}: ${message(r)}`);
      }
      assert.match(message(await slice(client, "link-dir")), /directory/);
    }
  });

  test("git's own folder is refused, asked for directly or through a symlink from anywhere", async () => {
    for (const client of [plain, overlaid]) {
      for (const path of [".git/config", "link-git", "sub/link-git-up", "link-git/../x"]) {
        const r = await slice(client, path);
        assert.equal(r.ok, false, path);
        assert.equal(category(r), "query_rejected", `${path}: ${message(r)}`);
        assert.ok(!JSON.stringify(r).includes(GIT_CONFIG_MARK), `${path} served git's config`);
      }
    }
  });

  test("a symlink to an indexed text file is served as its target, and says so", async () => {
    const r = await slice(plain, "link-a");
    assert.equal(r.ok, true, message(r));
    const item = (r.data as { slice: { path: string; content: string } }).slice;
    assert.equal(item.path, "src/a.ts");
    assert.match(item.content, /alpha/);
    assert.deepEqual(
      r.evidence.map((e) => e.path),
      ["src/a.ts"],
    );
    assert.ok(r.warnings.some((w) => w.code === "symlink_followed" && w.message.includes("link-a")));
  });

  test("a symlink is not followed to a secret-suspect, skipped, unindexed or outside file", async () => {
    const expected: Record<string, string> = { "link-env": "query_rejected", "link-bin": "query_rejected", "link-ignored": "not_found", "link-devnull": "query_rejected" };
    for (const client of [plain, overlaid]) {
      for (const [path, want] of Object.entries(expected)) {
        const r = await slice(client, path);
        assert.equal(category(r), want, `${path}: ${message(r)}`);
      }
    }
    assert.match(message(await slice(plain, "link-env")), /secret-suspect/);
    assert.match(message(await slice(plain, "link-bin")), /binary/);
  });

  test("an indexed file replaced by a FIFO or a device is refused, and every tool that looks at it still answers", async () => {
    const fifo = join(root, "src/b.ts");
    unlinkSync(fifo);
    execFileSync("mkfifo", [fifo]);
    unlinkSync(join(root, "sub/notes.md"));
    device = makeDevice(join(root, "sub/notes.md"));
    if (!device) writeFileSync(join(root, "sub/notes.md"), "# Notes\n\nnothing here\n");
    for (const client of [plain, overlaid]) {
      const r = await slice(client, "src/b.ts");
      assert.equal(category(r), "query_rejected", message(r));
      assert.match(message(r), /FIFO/);
      if (device) assert.equal(category(await slice(client, "sub/notes.md")), "query_rejected");
      // The tool pipeline checks every path a result names against the work tree: the FIFO is a change, never read.
      const search = await callWith(client, "search_code", { query: "bravo", mode: "lexical" });
      assert.equal(search.ok, true);
      const related = await callWith(client, "find_related_tests", { changedPaths: ["src/b.ts", "sub/notes.md"] });
      assert.equal(related.ok, true, JSON.stringify(related.data));
    }
    const stale = await callWith(plain, "search_code", { query: "bravo", mode: "lexical" });
    assert.ok(stale.warnings.some((w) => w.code === "file_changed_since_index" && w.message.includes("src/b.ts")));
  });

  test("instruction files and documents replaced by a FIFO: get_instructions and repo://docs answer", async () => {
    unlinkSync(join(root, "AGENTS.md"));
    execFileSync("mkfifo", [join(root, "AGENTS.md")]);
    unlinkSync(join(root, "README.md"));
    execFileSync("mkfifo", [join(root, "README.md")]);
    for (const client of [plain, overlaid]) {
      const r = await callWith(client, "get_instructions", { paths: ["src/a.ts"] });
      assert.equal(r.ok, true, JSON.stringify(r.data));
      const files = (r.data as { instructions: { files: { path: string; workingTree: string }[] } }).instructions.files;
      assert.equal(files.find((f) => f.path === "AGENTS.md")?.workingTree, "deleted");
      const res = await client.readResource({ uri: "repo://docs/README.md" });
      const env = JSON.parse((res.contents[0] as { text: string }).text) as Envelope;
      assert.equal(env.ok, false);
      assert.equal((env.data as { error: { category: string } }).error.category, "query_rejected");
      const overview = await client.readResource({ uri: "repo://instructions" });
      assert.ok(JSON.parse((overview.contents[0] as { text: string }).text).ok);
    }
  });

  test("check_context_freshness reports FIFOs, links into .git and directories as not checked", async () => {
    const manifest = placeholderManifest({
      contextPackageId: "ctx_paths",
      repoId: "repo",
      baseCommit: null,
      scopePaths: ["src"],
      paths: ["src/b.ts", "link-git", "vendor/lib", "src/a.ts", ".git/config"],
      endLine: 1,
      instructionSources: [{ path: "AGENTS.md", hash: ZERO_HASH }],
    });
    for (const client of [plain, overlaid]) {
      const r = await callWith(client, "check_context_freshness", { manifest });
      assert.equal(r.ok, true, JSON.stringify(r.data));
      const report = (r.data as { contextFreshness: { notChecked: { id?: string; path: string; reason: string }[]; stale: { id?: string; kind: string }[] } }).contextFreshness;
      const reasons = Object.fromEntries(report.notChecked.map((n) => [n.id ?? n.path, n.reason]));
      assert.equal(reasons.E1, "not_a_file");
      assert.equal(reasons.E2, "symlink");
      assert.equal(reasons.E5, "git_dir");
      assert.equal(reasons.E3, "not_a_file");
      assert.equal(reasons["AGENTS.md"], "not_a_file");
      assert.ok(report.stale.some((s) => s.id === "E4" && s.kind === "file_changed"));
    }
  });

  test("the overlay: a tracked file turned into a symlink into .git, and a new one, are refused; a new link to a file is followed", async () => {
    unlinkSync(join(root, "src/c.ts"));
    symlinkSync("../.git/config", join(root, "src/c.ts"));
    symlinkSync(".git/config", join(root, "new-git-link"));
    symlinkSync("src/a.ts", join(root, "new-link"));
    for (const path of ["src/c.ts", "new-git-link"]) {
      const r = await slice(overlaid, path);
      assert.equal(category(r), "query_rejected", `${path}: ${message(r)}`);
      assert.ok(!JSON.stringify(r).includes(GIT_CONFIG_MARK));
    }
    const followed = await slice(overlaid, "new-link");
    assert.equal(followed.ok, true, message(followed));
    assert.equal((followed.data as { slice: { path: string } }).slice.path, "src/a.ts");
    // Without the overlay, the index still has src/c.ts as a file: the work tree's symlink is refused all the same.
    assert.equal(category(await slice(plain, "src/c.ts")), "query_rejected");
    const search = await callWith(overlaid, "search_code", { query: "charlie", mode: "lexical" });
    assert.ok(!JSON.stringify(search).includes(GIT_CONFIG_MARK));
  });
});

describe("a commit that swaps a folder for a symlink (out of the root, into .git): nothing is read through it", () => {
  const OUTSIDE_MARK = "repoctx-outside-mark";

  test("neither the overlay nor an in-place update reads the folder's old paths through the symlink", async () => {
    const base = mkdtempSync(join(tmpdir(), "repoctx-swap-"));
    const root = join(base, "repo");
    const store = SqliteStore.open(join(base, "index.db"));
    try {
      mkdirSync(join(base, "outside"));
      writeFileSync(join(base, "outside/passwd"), `${OUTSIDE_MARK}\n`);
      mkdirSync(join(root, "docs"), { recursive: true });
      mkdirSync(join(root, "conf"), { recursive: true });
      writeFileSync(join(root, "docs/passwd"), "inside mark\n");
      writeFileSync(join(root, "conf/config"), "inside mark\n");
      writeFileSync(join(root, "a.txt"), "mark\n");
      git(root, ["init", "-q", "-b", "main"]);
      git(root, ["config", "repoctx.mark", GIT_CONFIG_MARK]);
      git(root, ["add", "-A"]);
      git(root, ["commit", "-q", "-m", "folders"]);
      const built = await buildIndex({ root, store, maxFileBytes: 1 << 20 });
      const real = built.repo.rootPath;
      // The next commit: each folder becomes a symlink; the index still lists docs/passwd and conf/config.
      git(real, ["rm", "-rq", "docs", "conf"]);
      symlinkSync("../outside", join(real, "docs"));
      symlinkSync(".git", join(real, "conf"));
      git(real, ["add", "docs", "conf"]);
      git(real, ["commit", "-q", "-m", "folders become links"]);

      const client = await openClient({ store, root: real, policy: defaultReadPolicy(), logger: silentLogger, readHead: () => currentHead(real), overlay: overlayProvider(real, store, 1 << 20, lazyExtractor()) });
      try {
        const search = await client.callTool({ name: "search_code", arguments: { verbosity: "full", query: "mark", mode: "lexical", maxResults: 50 } });
        const text = JSON.stringify(search);
        assert.ok(!text.includes(OUTSIDE_MARK) && !text.includes(GIT_CONFIG_MARK), text.slice(0, 400));
        for (const path of ["docs/passwd", "conf/config"]) {
          const res = await client.callTool({ name: "get_file_slice", arguments: { verbosity: "full", path } });
          const env = JSON.parse((res.content as { text: string }[])[0]!.text) as Envelope;
          assert.equal((env.data as { error?: { category: string } }).error?.category, "query_rejected", path);
        }
      } finally {
        await client.close();
      }

      const updated = await updateIndex({ root: real, store, maxFileBytes: 1 << 20 });
      assert.ok(updated, "updated in place");
      for (const path of ["docs/passwd", "conf/config"]) assert.equal(await store.getFile(updated.indexId, path), null, path);
      assert.equal((await store.getFile(updated.indexId, "docs"))?.skipReason, "symlink_outside_root");
    } finally {
      await store.close();
      rmSync(base, { recursive: true, force: true });
    }
  });
});
