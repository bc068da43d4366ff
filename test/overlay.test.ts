import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defaultReadPolicy } from "../src/config/schema.js";
import { buildOverlay, lazyExtractor, overlayProvider } from "../src/sources/work-tree-overlay.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { queryTerms } from "../src/core/terms.js";
import { silentLogger } from "../src/core/log.js";
import type { Envelope } from "../src/service/envelope.js";
import { OverlayStore } from "../src/store/overlay-store.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { RankQuery } from "../src/store/store.js";
import { buildGoldenRepo, git, type BuiltRepo } from "./helpers/fixture.js";
import { openClient } from "./helpers/harness.js";
import { sha256 } from "../src/core/hash.js";
import { cachedHeadReader, currentHead } from "../src/sources/git-head.js";
import { watchChanges, type ChangeSignal } from "../src/cli/watch.js";

const PKG = "services/pricing/src/main/java/com/acme/pricing";
const SERVICE = `${PKG}/QuoteService.java`;
const BATCH = `${PKG}/QuoteBatchJob.java`;
const NEW_FILE = `${PKG}/QuoteAudit.java`;

interface Group {
  path: string;
  contentHash: string;
  hits: { startLine: number; matchLine: number; snippet: string }[];
}
interface SymbolHit {
  path: string;
  startLine: number;
  qualifiedName?: string;
  contentHash: string;
}

describe("working-tree overlay: edited, new and deleted files answer from disk", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: SqliteStore;
  let client: Client;
  let root: string;
  let clock = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    clock += 5000; // past the overlay's cache, so each call sees the work tree as it is now
    const res = await client.callTool({ name, arguments: { verbosity: "full", ...args } });
    return JSON.parse((res.content as { text: string }[])[0]!.text) as Envelope;
  };

  before(async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-overlay-"));
    store = SqliteStore.open(join(dir, "index.db"));
    const built = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20 });
    root = built.repo.rootPath;
    client = await openClient({
      store,
      root,
      policy: defaultReadPolicy(),
      logger: silentLogger,
      readHead: () => currentHead(root),
      overlay: overlayProvider(root, store, 1 << 20, lazyExtractor(), () => clock),
    });
  });
  after(async () => {
    await client.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("before any edit, answers come from the indexed commit", async () => {
    const env = await call("search_code", { query: "isQuoteExpired" });
    assert.equal(env.freshness, "base_commit");
    assert.ok(env.evidence.every((e) => e.commitSha === repo.commit && (e as { freshness?: string }).freshness === undefined));
    assert.ok(!env.warnings.some((w) => w.code === "working_tree_overlay"));
  });

  test("an uncommitted edit is searchable and its new method is a symbol, labelled working_tree with its own hash", async () => {
    const path = join(repo.root, SERVICE);
    const edited = readFileSync(path, "utf8").replace(
      "    private BigDecimal unitPrice(",
      "    public BigDecimal quoteWithTax(String sku, int quantity) {\n        return quote(sku, quantity).multiply(new BigDecimal(\"1.2\"));\n    }\n\n    private BigDecimal unitPrice(",
    );
    writeFileSync(path, edited);
    const env = await call("search_code", { query: "quoteWithTax", mode: "lexical" });
    assert.equal(env.ok, true);
    assert.equal(env.freshness, "working_tree");
    const groups = env.data.results as Group[];
    assert.deepEqual(
      groups.map((g) => g.path),
      [SERVICE],
    );
    assert.equal(groups[0]!.contentHash, sha256(edited));
    assert.equal(groups[0]!.hits[0]!.matchLine, 21);
    const ev = env.evidence.find((e) => e.path === SERVICE)!;
    assert.equal(ev.commitSha, null);
    assert.equal((ev as { freshness?: string }).freshness, "working_tree");
    assert.ok(env.warnings.some((w) => w.code === "working_tree_overlay" && w.message.includes(SERVICE)));
    assert.ok(!env.warnings.some((w) => w.code === "file_changed_since_index"), "served fresh, so not stale");

    const sym = await call("find_symbol", { symbol: "QuoteService#quoteWithTax" });
    const hits = sym.data.hits as SymbolHit[];
    assert.deepEqual(
      hits.map((h) => [h.path, h.startLine, h.qualifiedName]),
      [[SERVICE, 21, "com.acme.pricing.QuoteService#quoteWithTax"]],
    );
    // A method after the insertion moved: the overlay has its new line, not the indexed one.
    const moved = await call("find_symbol", { symbol: "QuoteService#unitPrice" });
    assert.equal((moved.data.hits as SymbolHit[])[0]!.startLine, 25);
  });

  test("a new file not yet indexed is found; a deleted file is gone", async () => {
    writeFileSync(join(repo.root, NEW_FILE), "package com.acme.pricing;\n\npublic class QuoteAudit {\n    public void record(String sku) {}\n}\n");
    unlinkSync(join(repo.root, BATCH));
    const found = await call("find_symbol", { symbol: "QuoteAudit" });
    assert.deepEqual(
      (found.data.hits as SymbolHit[]).map((h) => [h.path, h.startLine]),
      [[NEW_FILE, 3]],
    );
    assert.equal(found.freshness, "working_tree");
    const gone = await call("search_code", { query: "repriceAll", mode: "lexical" });
    assert.deepEqual(gone.data.results, []);
    const calls = await call("find_symbol", { symbol: "QuoteService#quote", intent: "call_sites" });
    assert.ok(!(calls.data.hits as SymbolHit[]).some((h) => h.path === BATCH), "call sites in a deleted file are gone");
    const slice = await call("get_file_slice", { path: NEW_FILE });
    assert.equal(slice.ok, true);
    assert.equal((slice.data.slice as { contentHash: string }).contentHash, sha256(readFileSync(join(repo.root, NEW_FILE))));
  });

  test("ranking sees the working tree: an edited file's new terms, a new file, not a deleted one", async () => {
    const index = (await store.getReadyIndex())!;
    const live = new OverlayStore(store, await buildOverlay(root, store, index, 1 << 20, lazyExtractor()));
    const query = (text: string): RankQuery => ({ terms: queryTerms(text).map((term) => ({ term, weight: 1 })), weights: { path: 1, symbols: 2, body: 1 }, limit: 10 });
    assert.deepEqual(await store.rankFiles(index.id, query("tax")), [], "the index has not seen the edit");
    const tax = await live.rankFiles(index.id, query("quote with tax"));
    assert.equal(tax[0]!.path, SERVICE);
    assert.deepEqual(tax[0]!.matched, ["quote", "tax"]);
    assert.ok(tax[0]!.fileId < 0, "an overlay id, as candidateFiles gives");
    assert.equal((await live.rankFiles(index.id, query("audit record")))[0]!.path, NEW_FILE);
    assert.ok(!(await live.rankFiles(index.id, query("reprice all"))).some((h) => h.path === BATCH), "a deleted file is gone");
  });

  test("files the agent did not touch still answer from the index", async () => {
    const env = await call("search_code", { query: "getQuote", mode: "lexical", paths: ["web/**"] });
    assert.equal(env.freshness, "base_commit");
    assert.ok(env.evidence.length > 0 && env.evidence.every((e) => e.commitSha === repo.commit));
  });
});

describe("the overlay with a watcher's count of changes", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: SqliteStore;
  let changes: ChangeSignal;

  /** Waits (polling, up to 20 s) until `ok` holds: the watcher's events arrive when the kernel delivers them. */
  const until = async (ok: () => boolean, what: string): Promise<void> => {
    const deadline = Date.now() + 20_000;
    while (!ok()) {
      if (Date.now() > deadline) assert.fail(`timed out waiting: ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  before(async () => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-overlay-watch-"));
    store = SqliteStore.open(join(dir, "index.db"));
    await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20 });
    changes = watchChanges(repo.root, { logger: silentLogger });
  });
  after(async () => {
    changes.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("a quiet work tree keeps its overlay however old; an edit is seen at the next call; ignored folders are no change", async () => {
    let clock = 0;
    const overlay = overlayProvider(repo.root, store, 1 << 20, lazyExtractor(), () => clock, changes);
    const index = (await store.getReadyIndex())!;
    await until(() => changes.epoch() !== null, "every folder watched");
    const first = await overlay(index);
    assert.equal(first.changed.size, 0);
    clock += 60_000;
    assert.equal(await overlay(index), first, "nothing moved: the same overlay, no new look at the work tree");

    const epoch = changes.epoch();
    writeFileSync(join(repo.root, "build", "output.js"), "// a build writes here\n");
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(changes.epoch(), epoch, "a folder git ignores is not watched");

    const edited = `${readFileSync(join(repo.root, SERVICE), "utf8")}\n// edited while serving\n`;
    writeFileSync(join(repo.root, SERVICE), edited);
    await until(() => changes.epoch() !== epoch, "the edit counted");
    clock += 2_000;
    const next = await overlay(index);
    assert.notEqual(next, first);
    assert.equal(next.changed.get(SERVICE)?.content, edited);
  });

  test("after named changes git is asked about those paths alone, and the overlay is what a whole look finds", async () => {
    const overlay = overlayProvider(repo.root, store, 1 << 20, lazyExtractor(), () => 0, changes);
    const index = (await store.getReadyIndex())!;
    await until(() => changes.epoch() !== null, "every folder watched");
    await overlay(index);
    const trace = join(dir, "git-trace.txt");
    /** The git status commands run while `changed` changes the work tree and the overlay is then asked (looks may start before the call). */
    const traced = async (change: () => void, named: () => boolean) => {
      writeFileSync(trace, "");
      process.env.GIT_TRACE = trace;
      try {
        change();
        await until(named, "each change named");
        const got = await overlay(index);
        return { got, statuses: readFileSync(trace, "utf8").split("\n").filter((l) => / git (-c \S+ )?status /.test(l)) };
      } finally {
        delete process.env.GIT_TRACE;
      }
    };
    const asWholeLook = async (got: Awaited<ReturnType<typeof overlay>>) => {
      const whole = await buildOverlay(repo.root, store, index, 1 << 20, lazyExtractor());
      assert.deepEqual([...got.changed.keys()].sort(), [...whole.changed.keys()].sort());
      assert.deepEqual([...got.deleted].sort(), [...whole.deleted].sort());
      for (const [path, file] of whole.changed) assert.equal(got.changed.get(path)?.content, file.content, path);
    };

    const since = changes.epoch()!;
    const routes = `${PKG}/http`;
    const batch = readFileSync(join(repo.root, BATCH));
    const named = [NEW_FILE, BATCH, routes, `${PKG}/routes`];
    const { got, statuses } = await traced(
      () => {
        writeFileSync(join(repo.root, NEW_FILE), "package com.acme.pricing;\n\nclass QuoteAudit {}\n");
        writeFileSync(join(repo.root, PKG, "debug.log"), "a log git ignores\n");
        unlinkSync(join(repo.root, BATCH));
        renameSync(join(repo.root, routes), join(repo.root, `${PKG}/routes`));
      },
      () => named.every((p) => changes.changedSince(since)?.includes(p)),
    );
    assert.ok(statuses.length > 0, "git was asked");
    for (const l of statuses) assert.ok(l.includes(" -- ") && !l.includes(`:(literal)${SERVICE}`), `git status of the named paths alone: ${l}`);
    assert.ok(statuses.some((l) => l.includes(`:(literal)${NEW_FILE}`)));
    assert.ok(got.changed.has(NEW_FILE) && got.changed.has(`${PKG}/routes/QuoteRoutes.java`));
    // Gone from the work tree but still in git's index: a row without text, as a build lists it.
    for (const gone of [BATCH, `${routes}/QuoteRoutes.java`]) assert.equal(got.changed.get(gone)?.row.skipReason, "unreadable", gone);
    assert.ok(!got.changed.has(`${PKG}/debug.log`), "a file git ignores is not overlaid");
    await asWholeLook(got);

    // Put back as it was: the overlay drops what is the indexed text again.
    const at = changes.epoch()!;
    const back = await traced(
      () => {
        renameSync(join(repo.root, `${PKG}/routes`), join(repo.root, routes));
        unlinkSync(join(repo.root, NEW_FILE));
        writeFileSync(join(repo.root, BATCH), batch);
      },
      () => [NEW_FILE, BATCH, routes].every((p) => changes.changedSince(at)?.includes(p)),
    );
    for (const p of [NEW_FILE, BATCH, `${routes}/QuoteRoutes.java`, `${PKG}/routes/QuoteRoutes.java`]) assert.ok(!back.got.changed.has(p), p);
    assert.ok(existsSync(join(repo.root, routes, "QuoteRoutes.java")));
    await asWholeLook(back.got);

    // A changed ignore file can move any path: a whole look.
    const last = changes.epoch()!;
    const whole = await traced(
      () => appendFileSync(join(repo.root, ".gitignore"), "*.tmp\n"),
      () => changes.changedSince(last)?.includes(".gitignore") === true,
    );
    assert.ok(whole.statuses.length > 0 && whole.statuses.every((l) => !l.includes(" -- ")), whole.statuses.join("\n"));
    await asWholeLook(whole.got);
  });

  test("an edit is looked at once it settles, before the next call: that call asks git nothing", async () => {
    const overlay = overlayProvider(repo.root, store, 1 << 20, lazyExtractor(), () => 0, changes);
    const index = (await store.getReadyIndex())!;
    await until(() => changes.epoch() !== null, "every folder watched");
    await overlay(index);
    const path = `${PKG}/QuoteCache.java`;
    const edited = `${readFileSync(join(repo.root, path), "utf8")}\n// saved while the agent reads\n`;
    const epoch = changes.epoch();
    writeFileSync(join(repo.root, path), edited);
    await until(() => changes.epoch() !== epoch, "the edit counted");
    // Time for the look ahead (25 ms of quiet, then git and the parser) to finish; the call then only reads it.
    await new Promise((r) => setTimeout(r, 1500));
    const trace = join(dir, "ahead-trace.txt");
    writeFileSync(trace, "");
    process.env.GIT_TRACE = trace;
    try {
      const got = await overlay(index);
      assert.equal(got.changed.get(path)?.content, edited);
      assert.equal(readFileSync(trace, "utf8"), "", "the call ran no git process");
    } finally {
      delete process.env.GIT_TRACE;
    }
  });

  test("HEAD is read again only after the watcher saw something move: a commit is seen at the next call", async () => {
    let clock = 0;
    const readHead = cachedHeadReader(repo.root, () => clock, changes);
    await until(() => changes.epoch() !== null, "every folder watched");
    const head = await readHead();
    assert.equal(head, repo.commit);
    const trace = join(dir, "head-trace.txt");
    writeFileSync(trace, "");
    process.env.GIT_TRACE = trace;
    try {
      clock += 60_000;
      assert.equal(await readHead(), head);
      assert.equal(readFileSync(trace, "utf8"), "", "nothing moved: no git process");
    } finally {
      delete process.env.GIT_TRACE;
    }
    const epoch = changes.epoch();
    git(repo.root, ["commit", "-q", "--allow-empty", "-m", "a commit while serving"]);
    await until(() => changes.epoch() !== epoch, "the commit counted");
    assert.equal(await readHead(), git(repo.root, ["rev-parse", "HEAD"]));
    assert.notEqual(await readHead(), head);
  });
});
