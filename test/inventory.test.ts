import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildIndex, type IndexResult } from "../src/indexer/pipeline.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { FileRow } from "../src/store/store.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";
import { assertGolden } from "./helpers/golden.js";

const MIB = 1024 * 1024;

describe("inventory of the golden repository", () => {
  let repo: BuiltRepo;
  let store: SqliteStore;
  let storeDir: string;
  let result: IndexResult;
  let rows: Map<string, FileRow>;

  let elapsedMs = 0;

  before(async () => {
    repo = buildGoldenRepo();
    storeDir = mkdtempSync(join(tmpdir(), "repoctx-inv-"));
    store = SqliteStore.open(join(storeDir, "index.db"));
    const t0 = Date.now();
    result = await buildIndex({ root: repo.root, store, maxFileBytes: MIB });
    elapsedMs = Date.now() - t0;
    rows = new Map((await store.listFiles(result.indexId, { includeSkipped: true })).map((r) => [r.path, r]));
  });
  after(async () => {
    await store.close();
    rmSync(storeDir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("repository identity, commit and dirty state come from git", () => {
    assert.equal(result.repo.repoId, "acme/pricing-service");
    assert.equal(result.repo.baseCommit, repo.commit);
    assert.equal(result.repo.branch, "main");
    assert.equal(result.repo.dirty, true, "an untracked file makes the tree dirty");
    assert.equal(result.walkSource, "git");
  });

  test("tracked and untracked-not-ignored files are listed; ignored ones are not", () => {
    assert.ok(rows.has("notes/todo.md"), "untracked file is indexed");
    assert.ok(!rows.has("build/output.js"), "ignored file is not listed");
    assert.ok(!rows.has("_dot_env") && rows.has(".env"));
  });

  test("languages come from linguist data", () => {
    const lang = (p: string) => rows.get(p)?.language;
    assert.equal(lang("services/pricing/src/main/java/com/acme/pricing/QuoteService.java"), "java");
    assert.equal(lang("web/src/quote.ts"), "typescript");
    assert.equal(lang("tools/pricing_report.py"), "python");
    assert.equal(lang("services/pricing/pom.xml"), "maven-pom");
    assert.equal(lang("README.md"), "markdown");
    assert.equal(lang("services/pricing/src/main/resources/application.yml"), "yaml");
  });

  test("every odd file keeps a row with its skip reason", () => {
    assert.equal(rows.get("assets/logo.png")?.skipReason, "binary");
    assert.equal(rows.get("assets/logo.png")?.isBinary, true);
    const huge = rows.get("data/huge-dump.sql")!;
    assert.equal(huge.skipReason, "too_large");
    assert.ok(huge.sizeBytes > MIB);
    assert.match(huge.contentHash, /^sha256:[0-9a-f]{64}$/);
    assert.equal(rows.get("docs/legacy-latin1.txt")?.skipReason, "non_utf8");
    assert.equal(rows.get("docs/outside-link.txt")?.skipReason, "symlink_outside_root");
  });

  test("generated, secret-suspect and instruction-like flags", () => {
    const gen = rows.get("web/src/generated/api-client.ts")!;
    assert.equal(gen.isGenerated, true);
    assert.equal(gen.generatedReason, "marker:@generated");
    assert.equal(rows.get("web/src/quote.ts")?.isGenerated, false);
    const env = rows.get(".env")!;
    assert.equal(env.isSecretSuspect, true);
    assert.ok(env.secretReasons.some((r) => r.startsWith("secret-file-name")));
    const prod = rows.get("services/pricing/src/main/resources/application-prod.yml")!;
    assert.equal(prod.isSecretSuspect, true, "the scan flags the AWS key pair");
    assert.ok(prod.secretReasons.some((r) => r.startsWith("secret:aws-")));
    assert.equal(rows.get("services/pricing/src/main/resources/application.yml")?.isSecretSuspect, false);
    assert.equal(rows.get("docs/integration.md")?.hasInstructionLikeText, true);
    assert.equal(rows.get("README.md")?.hasInstructionLikeText, false);
  });

  test("stats add up and the recorded duration is the build's own", () => {
    const s = result.stats;
    assert.equal(s.files, rows.size);
    assert.equal(s.indexedFiles + s.skippedFiles, s.files);
    assert.ok(s.durationMs >= 0 && s.durationMs <= elapsedMs, `durationMs ${s.durationMs} vs measured ${elapsedMs}`);
  });

  test("line counts and hashes", () => {
    const svc = rows.get("services/pricing/src/main/java/com/acme/pricing/QuoteService.java")!;
    assert.equal(svc.lineCount, 24);
    assert.match(svc.contentHash, /^sha256:[0-9a-f]{64}$/);
  });

  test("the whole inventory matches the golden expectation", () => {
    assertGolden(
      "golden/inventory",
      [...rows.values()].map((r) => ({
        path: r.path,
        language: r.language,
        sizeBytes: r.sizeBytes,
        lineCount: r.lineCount,
        contentHash: r.contentHash,
        flags: [
          r.isBinary && "binary",
          r.isGenerated && "generated",
          r.isVendored && "vendored",
          r.isSecretSuspect && "secret_suspect",
          r.hasInstructionLikeText && "instruction_like_text",
        ].filter(Boolean),
        generatedReason: r.generatedReason,
        secretReasons: r.secretReasons,
        skipReason: r.skipReason,
        skipDetail: r.skipDetail,
      })),
    );
  });

  test("symbol extraction in worker threads gives the same symbols and references as in-process", async () => {
    const symbolsOf = async (indexId: string) => {
      const out: string[] = [];
      for (const name of ["quote", "getQuote", "isQuoteExpired", "summarize_quotes", "QuoteService"]) {
        for (const s of await store.findSymbols(indexId, { name, limit: 100 })) out.push(`${s.path}:${s.startLine} ${s.kind} ${s.qualifiedName}`);
        for (const r of await store.findReferences(indexId, { name, limit: 100 })) out.push(`${r.path}:${r.line}:${r.column} ${r.kind} <- ${r.enclosing}`);
      }
      return out;
    };
    const inProcess = await symbolsOf(result.indexId);
    assert.ok(inProcess.length > 10);
    const threaded = await buildIndex({ root: repo.root, store, maxFileBytes: MIB, symbolWorkers: 2, incremental: false });
    assert.equal(threaded.stats.reusedFiles, 0);
    assert.equal(threaded.indexVersion, result.indexVersion);
    assert.deepEqual(await symbolsOf(threaded.indexId), inProcess);
    const statuses = (await store.listFiles(threaded.indexId)).map((f) => [f.path, f.symbolStatus, f.symbolExtractor]);
    assert.deepEqual(statuses, [...rows.values()].filter((r) => r.skipReason === null).map((f) => [f.path, f.symbolStatus, f.symbolExtractor]));
    result = threaded;
  });

  test("rebuilding the same tree gives the same index version and rows", async () => {
    const again = await buildIndex({ root: repo.root, store, maxFileBytes: MIB });
    assert.equal(again.stats.extractedFiles, 0, "nothing changed, so no file is re-extracted");
    // Generated files without symbols (the lockfile) have nothing to reuse.
    assert.equal(again.stats.reusedFiles, [...rows.values()].filter((r) => r.symbolStatus !== null && !r.symbolDetail?.startsWith("generated:")).length);
    assert.equal(again.indexVersion, result.indexVersion);
    const againRows = await store.listFiles(again.indexId, { includeSkipped: true });
    assert.deepEqual(againRows, [...rows.values()]);
    result = again;
  });
});
