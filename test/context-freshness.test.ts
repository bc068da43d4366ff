import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defaultReadPolicy } from "../src/config/schema.js";
import { lazyExtractor, overlayProvider } from "../src/sources/work-tree-overlay.js";
import { buildIndex, updateIndex } from "../src/indexer/pipeline.js";
import { silentLogger } from "../src/core/log.js";
import type { Envelope } from "../src/service/envelope.js";
import type { FreshnessReport, NotCheckedItem, StaleItem } from "../src/query/context-package/freshness.js";
import { spanHash, valueHash } from "../src/query/context-package/manifest.js";
import type { ContextManifest } from "../src/query/context-package/manifest-schema.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { buildGoldenRepo, git, type BuiltRepo } from "./helpers/fixture.js";
import { openClient } from "./helpers/harness.js";
import { sha256 } from "../src/core/hash.js";
import { currentHead } from "../src/sources/git-head.js";

const PKG = "services/pricing/src/main/java/com/acme/pricing";
const SERVICE = `${PKG}/QuoteService.java`;
const CACHE = `${PKG}/QuoteCache.java`;
const SERVICE_AGENTS = "services/pricing/AGENTS.md";
const MIB = 1 << 20;

interface Span {
  path: string;
  startLine: number;
  endLine: number;
}

/** E1 and E3 cite two spans of one file, so one edit can change one span and leave the other. */
const SPANS: Span[] = [
  { path: SERVICE, startLine: 10, endLine: 15 },
  { path: CACHE, startLine: 1, endLine: 5 },
  { path: SERVICE, startLine: 17, endLine: 19 },
];

describe("check_context_freshness: which parts of a context package went stale", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: SqliteStore;
  let client: Client;
  let repoId: string;
  let clock = 0;

  /** A manifest written by hand from the ready index's rows, as the builder would record them. */
  async function manifestFromIndex(extra: Partial<ContextManifest> = {}): Promise<ContextManifest> {
    const index = (await store.getReadyIndex(repoId))!;
    const evidence = [];
    for (const [i, s] of SPANS.entries()) {
      const row = (await store.getFile(index.id, s.path))!;
      const content = (await store.getContent(index.id, s.path))!;
      evidence.push({ id: `E${i + 1}`, ...s, hash: row.contentHash, spanHash: spanHash(content, s.startLine, s.endLine), kind: "file_excerpt" as const });
    }
    const instructions = await store.listInstructionFiles(index.id);
    const instructionSources = ["AGENTS.md", SERVICE_AGENTS].map((path) => ({ path, hash: instructions.find((f) => f.path === path)!.contentHash! }));
    return {
      manifestVersion: 1,
      contextPackageId: "ctx_test",
      purpose: "editing",
      repoId,
      baseCommit: index.baseCommit,
      indexVersion: index.indexVersion,
      createdAt: "2026-01-01T00:00:00.000Z",
      target: "anthropic",
      tokenizer: "o200k_base",
      budgetTokens: 8000,
      tokenEstimate: 1200,
      scopePaths: [SERVICE, CACHE],
      evidence,
      instructionSources,
      constraintsHash: valueHash({}),
      effectiveInstructionHash: valueHash([]),
      outputContract: "apply_patch_only",
      ...extra,
    };
  }

  async function check(manifest: unknown): Promise<Envelope & { isError: boolean; text: string }> {
    clock += 5000; // past the overlay's cache, so each call sees the work tree as it is now
    const res = await client.callTool({ name: "check_context_freshness", arguments: { verbosity: "full", manifest } });
    const text = (res.content as { text: string }[])[0]!.text;
    return { ...(JSON.parse(text) as Envelope), isError: res.isError === true, text };
  }

  async function report(manifest: ContextManifest): Promise<FreshnessReport> {
    const env = await check(manifest);
    assert.equal(env.ok, true, env.text);
    return env.data.contextFreshness as FreshnessReport;
  }

  const kinds = (r: FreshnessReport) => r.stale.map((s) => [s.kind, s.id ?? s.path]);
  const abs = (path: string) => join(repo.root, path);

  /** Runs `body` with a file edited, then puts the original bytes back. */
  async function withEdit(path: string, edit: (text: string) => string, body: () => Promise<void>): Promise<void> {
    const original = readFileSync(abs(path));
    writeFileSync(abs(path), edit(original.toString("utf8")));
    try {
      await body();
    } finally {
      writeFileSync(abs(path), original);
    }
  }

  before(async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-freshness-"));
    store = SqliteStore.open(join(dir, "index.db"));
    const built = await buildIndex({ root: repo.root, store, maxFileBytes: MIB });
    repoId = built.repo.repoId;
    const root = built.repo.rootPath;
    client = await openClient({
      store,
      root,
      policy: defaultReadPolicy(),
      logger: silentLogger,
      readHead: () => currentHead(root),
      overlay: overlayProvider(root, store, MIB, lazyExtractor(), () => clock),
    });
  });
  after(async () => {
    await client.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("a manifest of the index as it is is fresh, and every item was checked", async () => {
    const manifest = await manifestFromIndex();
    const env = await check(manifest);
    assert.equal(env.ok, true, env.text);
    const r = env.data.contextFreshness as FreshnessReport;
    assert.equal(r.fresh, true);
    assert.deepEqual(r.stale, []);
    assert.deepEqual(r.notChecked, []);
    assert.deepEqual(r.checked, { evidence: 3, evidenceUnchanged: 3, instructionSources: 2, scopePaths: 2 });
    assert.deepEqual(r.current, { head: repo.commit, indexCommit: repo.commit, indexVersion: manifest.indexVersion });
    assert.equal(env.freshness, "working_tree");
    assert.deepEqual(
      env.evidence.map((e) => [e.path, e.startLine, e.endLine, e.contentHash]),
      manifest.evidence.map((e) => [e.path, e.startLine, e.endLine, e.hash]),
    );
  });

  test("an uncommitted edit inside a cited span is file_changed with spanChanged; the other span of that file is not", async () => {
    const manifest = await manifestFromIndex();
    await withEdit(SERVICE, (t) => t.replace("quantity must be positive", "quantity must be > 0"), async () => {
      const r = await report(manifest);
      assert.equal(r.fresh, false);
      assert.deepEqual(kinds(r), [["file_changed", "E1"], ["file_changed", "E3"]]);
      const [e1, e3] = r.stale as [StaleItem, StaleItem];
      assert.equal(e1.spanChanged, true);
      assert.equal(e3.spanChanged, false);
      assert.equal(e1.expected, manifest.evidence[0]!.hash);
      assert.equal(e1.actual, sha256(readFileSync(abs(SERVICE))));
      assert.equal(r.checked.evidenceUnchanged, 1);
    });
  });

  test("an edit outside every cited span is file_changed with spanChanged false", async () => {
    const manifest = await manifestFromIndex();
    await withEdit(SERVICE, (t) => t.replace('"49.90"', '"59.90"'), async () => {
      const r = await report(manifest);
      assert.deepEqual(kinds(r), [["file_changed", "E1"], ["file_changed", "E3"]]);
      assert.ok(r.stale.every((s) => s.spanChanged === false));
    });
  });

  test("lines inserted above a span move it: the same line numbers now read differently", async () => {
    const manifest = await manifestFromIndex();
    await withEdit(SERVICE, (t) => t.replace("import java.time.Instant;\n", "import java.time.Instant;\nimport java.util.Objects;\n"), async () => {
      const r = await report(manifest);
      assert.ok(r.stale.every((s) => s.kind === "file_changed" && s.spanChanged === true));
    });
  });

  test("after the edits are reverted the same manifest is fresh again", async () => {
    const r = await report(await manifestFromIndex());
    assert.equal(r.fresh, true);
    assert.equal(r.checked.evidenceUnchanged, 3);
  });

  test("a deleted evidence file is file_deleted", async () => {
    const manifest = await manifestFromIndex();
    const original = readFileSync(abs(CACHE));
    unlinkSync(abs(CACHE));
    try {
      const r = await report(manifest);
      assert.deepEqual(kinds(r), [["file_deleted", "E2"]]);
      assert.equal(r.stale[0]!.actual, null);
    } finally {
      writeFileSync(abs(CACHE), original);
    }
  });

  test("an edited instruction file is instruction_changed; a deleted one is instruction_removed", async () => {
    const manifest = await manifestFromIndex();
    await withEdit(SERVICE_AGENTS, (t) => `${t}- Never touch the cache.\n`, async () => {
      const r = await report(manifest);
      assert.deepEqual(kinds(r), [["instruction_changed", SERVICE_AGENTS]]);
      assert.equal(r.stale[0]!.actual, sha256(readFileSync(abs(SERVICE_AGENTS))));
    });
    const original = readFileSync(abs(SERVICE_AGENTS));
    unlinkSync(abs(SERVICE_AGENTS));
    try {
      const r = await report(manifest);
      assert.ok(r.stale.some((s) => s.kind === "instruction_removed" && s.path === SERVICE_AGENTS), JSON.stringify(r.stale));
    } finally {
      writeFileSync(abs(SERVICE_AGENTS), original);
    }
  });

  test("a new AGENTS.md in a folder above a scope path is instruction_added; one elsewhere is not", async () => {
    const manifest = await manifestFromIndex();
    const nested = "services/pricing/src/main/AGENTS.md";
    const elsewhere = "web/AGENTS.md";
    writeFileSync(abs(nested), "# Main sources\n\n- Keep methods short.\n");
    writeFileSync(abs(elsewhere), "# Web\n\n- Use npm.\n");
    try {
      const r = await report(manifest);
      assert.deepEqual(kinds(r), [["instruction_added", nested]]);
      assert.equal(r.stale[0]!.seenIn, "work_tree");
    } finally {
      unlinkSync(abs(nested));
      unlinkSync(abs(elsewhere));
    }
  });

  test("paths outside the repository and secret-suspect files are not checked, never read, and their hashes are not echoed", async () => {
    const outsideHash = sha256(readFileSync(join(repo.base, "outside-secret.txt")));
    const envHash = sha256(readFileSync(abs(".env")));
    const base = await manifestFromIndex();
    const cite = (id: string, path: string, hash: string) => ({ id, path, startLine: 1, endLine: 1, hash, spanHash: hash, kind: "file_excerpt" as const });
    const manifest = {
      ...base,
      scopePaths: [...base.scopePaths, "/etc"],
      evidence: [
        ...base.evidence,
        cite("X1", "../outside-secret.txt", outsideHash),
        cite("X2", "/etc/passwd", outsideHash),
        cite("X3", "%2e%2e/outside-secret.txt", outsideHash),
        cite("X4", "docs/outside-link.txt", outsideHash),
        cite("X5", ".env", envHash),
      ],
      instructionSources: [...base.instructionSources, { path: "../AGENTS.md", hash: outsideHash }, { path: ".env", hash: envHash }],
    };
    const env = await check(manifest);
    const r = env.data.contextFreshness as FreshnessReport;
    assert.equal(r.fresh, true, "nothing that was checked is stale");
    assert.deepEqual(r.checked, { evidence: 3, evidenceUnchanged: 3, instructionSources: 2, scopePaths: 2 });
    const reasons = (r.notChecked as NotCheckedItem[]).map((n) => [n.item, n.id ?? n.path, n.reason]);
    assert.deepEqual(reasons, [
      ["evidence", "X1", "traversal"],
      ["evidence", "X2", "absolute_path"],
      ["evidence", "X3", "traversal"],
      ["evidence", "X4", "symlink_escape"],
      ["evidence", "X5", "policy"],
      ["instruction_source", "../AGENTS.md", "traversal"],
      ["instruction_source", ".env", "not_instruction_file"],
      ["scope_path", "/etc", "absolute_path"],
    ]);
    assert.ok(env.warnings.some((w) => w.code === "freshness_incomplete"));
    assert.ok(!env.evidence.some((e) => e.path.includes("outside") || e.path.includes(".env")));
    for (const leak of [outsideHash, envHash, "outside the repository\n", "correct-horse", repo.base]) assert.ok(!env.text.includes(leak), leak);
  });

  test("an evidence file edited to hold a credential is no longer compared (a hash check would be an oracle for it)", async () => {
    const manifest = await manifestFromIndex();
    await withEdit(CACHE, (t) => `${t}// aws_access_key_id = AKIAZ7QW3ER5TY6UI8OP\n`, async () => {
      const r = await report(manifest);
      assert.deepEqual(kinds(r), []);
      assert.deepEqual(
        r.notChecked.map((n) => [n.id, n.reason]),
        [["E2", "policy"]],
      );
    });
  });

  test("a manifest of another version, with unknown keys, or for another repository is invalid_input", async () => {
    const manifest = await manifestFromIndex();
    const category = (env: Envelope) => (env.data.error as { category: string }).category;
    for (const bad of [
      { ...manifest, manifestVersion: 2 },
      { ...manifest, extra: true },
      { ...manifest, evidence: [{ ...manifest.evidence[0]!, content: "x" }] },
      { ...manifest, evidence: [{ ...manifest.evidence[0]!, hash: "md5:abc" }] },
    ]) {
      const env = await check(bad);
      assert.equal(env.isError, true);
      assert.equal(category(env), "invalid_input");
    }
    const other = await check({ ...manifest, repoId: "someone/else" });
    assert.equal(category(other), "invalid_input");
  });

  test("a commit that touches no evidence file is commit_moved, with every item still byte-identical", async () => {
    const manifest = await manifestFromIndex();
    writeFileSync(abs("README.md"), `${readFileSync(abs("README.md"), "utf8")}\nMore words.\n`);
    git(repo.root, ["commit", "-q", "-am", "Docs"]);
    const head = git(repo.root, ["rev-parse", "HEAD"]);
    const r = await report(manifest);
    assert.deepEqual(kinds(r), [["commit_moved", undefined]]);
    assert.deepEqual([r.stale[0]!.expected, r.stale[0]!.actual], [repo.commit, head]);
    assert.match(r.stale[0]!.message, /3 of 3 checked evidence item\(s\) are still byte-identical/);
    assert.ok(r.notes.some((n) => n.kind === "index_behind_head"));
  });

  test("a commit that touches an evidence file is commit_moved and file_changed; after reindexing, a new manifest is fresh", async () => {
    const old = await manifestFromIndex();
    writeFileSync(abs(CACHE), readFileSync(abs(CACHE), "utf8").replace("/** Recently issued quotes", "/** Quotes recently issued"));
    git(repo.root, ["commit", "-q", "-am", "Reword"]);
    const moved = await report(old);
    assert.deepEqual(kinds(moved), [["commit_moved", undefined], ["file_changed", "E2"]]);
    assert.match(moved.stale[0]!.message, /2 of 3/);

    const updated = await updateIndex({ root: repo.root, store, maxFileBytes: MIB });
    assert.ok(updated, "the in-place update applies");
    const fresh = await report(await manifestFromIndex());
    assert.equal(fresh.fresh, true, JSON.stringify(fresh.stale));
    assert.equal(fresh.current.indexCommit, git(repo.root, ["rev-parse", "HEAD"]));
    assert.ok(!fresh.notes.some((n) => n.kind === "index_behind_head"));

    const stillOld = await report(old);
    assert.deepEqual(kinds(stillOld), [["commit_moved", undefined], ["file_changed", "E2"]]);
    assert.ok(stillOld.notes.some((n) => n.kind === "index_version_changed"));
  });

  test("a nested folder created after indexing is probed for instruction files too", async () => {
    const manifest = await manifestFromIndex({ scopePaths: ["services/pricing/src/new/Thing.java"] });
    mkdirSync(abs("services/pricing/src/new"));
    writeFileSync(abs("services/pricing/src/new/CLAUDE.md"), "# New\n");
    try {
      const r = await report(manifest);
      assert.deepEqual(kinds(r), [["instruction_added", "services/pricing/src/new/CLAUDE.md"]]);
    } finally {
      rmSync(abs("services/pricing/src/new"), { recursive: true });
    }
  });
});
