import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { defaultReadPolicy } from "../../src/config/schema.js";
import { buildIndex } from "../../src/indexer/pipeline.js";
import { currentHead } from "../../src/sources/git-head.js";
import { testDeps } from "./deps.js";
import { silentLogger } from "../../src/core/log.js";
import type { ServerDeps } from "../../src/service/deps.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { buildGoldenRepo, git, type BuiltRepo } from "./fixture.js";

export const REPO_A = "acme/pricing-service";
export const REPO_B = "acme/billing-service";
/** A path only repository B holds, and a term only its files contain. */
export const B_ONLY_PATH = "billing/src/InvoiceTotals.java";
export const B_ONLY_TERM = "computeInvoiceTotalCents";

export interface TwoRepos {
  a: BuiltRepo;
  /** Work tree of B: a sibling of A's, inside A's temp folder, so `../billing-repo/…` from A names it. */
  bRoot: string;
  storeDir: string;
  storePath: string;
  store: SqliteStore;
  deps: { a: ServerDeps; b: ServerDeps };
  cleanup(): Promise<void>;
}

/** Writes and commits repository B: a small billing service with a README of its own. */
export function buildBillingRepo(root: string): void {
  const files: Record<string, string> = {
    "README.md": "# Billing service\n\nInvoices and their totals.\n",
    [B_ONLY_PATH]: `package com.acme.billing;\n\npublic class InvoiceTotals {\n  public long ${B_ONLY_TERM}(long[] lines) {\n    long sum = 0;\n    for (long l : lines) sum += l;\n    return sum;\n  }\n}\n`,
    "billing/src/InvoiceTotalsTest.java": `package com.acme.billing;\n\nclass InvoiceTotalsTest {\n  void sums() { new InvoiceTotals().${B_ONLY_TERM}(new long[] {1, 2}); }\n}\n`,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["remote", "add", "origin", `https://github.com/${REPO_B}.git`]);
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "-m", "Initial billing service"]);
}

function depsOf(store: SqliteStore, root: string, repoId: string): ServerDeps {
  return testDeps({ store, root, repoId, logger: silentLogger, readHead: () => currentHead(root) });
}

/** The golden repository (A) and a billing repository (B), both indexed into one SQLite store. */
export async function buildTwoRepos(): Promise<TwoRepos> {
  const a = buildGoldenRepo();
  const bRoot = join(a.base, "billing-repo");
  mkdirSync(bRoot);
  buildBillingRepo(bRoot);
  const storeDir = mkdtempSync(join(tmpdir(), "repoctx-two-"));
  const storePath = join(storeDir, "index.db");
  const store = SqliteStore.open(storePath);
  const ia = await buildIndex({ root: a.root, store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes });
  const ib = await buildIndex({ root: bRoot, store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes });
  return {
    a,
    bRoot,
    storeDir,
    storePath,
    store,
    deps: { a: depsOf(store, ia.repo.rootPath, ia.repo.repoId), b: depsOf(store, ib.repo.rootPath, ib.repo.repoId) },
    async cleanup() {
      await store.close();
      rmSync(storeDir, { recursive: true, force: true });
      a.cleanup();
    },
  };
}
