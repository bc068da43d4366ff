import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultReadPolicy } from "../src/config/schema.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { searchCode, type SearchInput } from "../src/query/search.js";
import type { QueryContext } from "../src/query/context.js";
import { PathSignatures } from "../src/store/path-signatures.js";
import type { Store } from "../src/store/store.js";
import { commitFiles } from "./helpers/fixture.js";
import { STORE_KINDS, StoreTracker } from "./helpers/stores.js";

/**
 * A search with many candidates reads them page by page where the store lists them in path order (read-order.ts):
 * the same files in the same order as listing and sorting every candidate, which a store without pages does.
 */
function repository(): Record<string, string> {
  const files: Record<string, string> = {};
  const line = (i: number) => `gadget_count = ${i}\n`;
  for (let i = 0; i < 320; i++) files[`src/m${String(i).padStart(3, "0")}.cfg`] = `# module ${i}\n${line(i).repeat(1 + (i % 4))}other = 1\n`;
  // Lower priors: tests, docs, a large file; higher: paths that hold the query, early and late in path order.
  for (let i = 0; i < 12; i++) files[`test/t${i}.cfg`] = line(i);
  for (let i = 0; i < 6; i++) files[`docs/guide${i}.md`] = `# Guide\n\nSet ${line(i)}`;
  files["src/zz/large.cfg"] = `${line(1)}${"filler = 0\n".repeat(6000)}`;
  files["aaa/gadget_count.cfg"] = line(7);
  files["src/zz/gadget_count_late.cfg"] = line(8).repeat(3);
  files["test/gadget_count_checks.cfg"] = line(9);
  // A path that holds the query in a file whose text does not: never a match, whichever way it is read.
  files["notes/gadget_count.txt"] = "nothing here\n";
  return files;
}

/**
 * The store as one without candidate pages: every candidate listed, then sorted. (PostgreSQL has none: its cursor
 * hands candidates back in the table's physical order, which an index build leaves only nearly in id order.)
 */
function withoutPages(store: Store): Store {
  return new Proxy(store, {
    get(target, key) {
      if (key === "candidatePages") return undefined;
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** Counts the listing calls a search makes. */
function counting(store: Store, calls: string[]): Store {
  return new Proxy(store, {
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      if (typeof v !== "function") return v;
      return (...a: unknown[]) => {
        if (key === "candidateFiles" || key === "candidatePages") calls.push(String(key));
        return (v as (...a: unknown[]) => unknown).apply(target, a);
      };
    },
  });
}

function answer(r: Awaited<ReturnType<typeof searchCode>>): unknown {
  return { items: r.items, stats: r.stats, evidence: r.evidence, warnings: r.warnings, labels: [...r.labels] };
}

for (const kind of STORE_KINDS) describe(`reading many candidates page by page: ${kind.name}`, { skip: kind.skip }, () => {
  let ctx: QueryContext;
  let base: string;
  const stores = new StoreTracker(kind);

  before(async () => {
    base = mkdtempSync(join(tmpdir(), "repoctx-read-order-"));
    const root = join(base, "repo");
    commitFiles(root, repository(), "initial");
    const { store } = await stores.fresh();
    const built = await buildIndex({ root, store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes });
    ctx = { store, index: (await store.getReadyIndex(built.repo.repoId))!, policy: defaultReadPolicy() };
  });
  after(async () => {
    await stores.closeAll();
    rmSync(base, { recursive: true, force: true });
  });

  const inputs: SearchInput[] = [
    { query: "gadget_count" },
    { query: "gadget_count", mode: "lexical" },
    { query: "gadget_count", mode: "lexical", maxResults: 5 },
    { query: "GADGET_COUNT = 1", mode: "lexical" },
    { query: "gadget_count", mode: "lexical", countOnly: true },
    { query: "gadget_count", mode: "lexical", includeGenerated: true, maxResults: 200 },
    { query: "gadget_c[o]unt = 3", mode: "lexical", regex: true },
  ];

  for (const input of inputs) {
    test(`${JSON.stringify(input)}: the same answer as sorting every candidate`, async () => {
      const calls: string[] = [];
      const paged = await searchCode({ ...ctx, store: counting(ctx.store, calls) }, input);
      const listed = await searchCode({ ...ctx, store: withoutPages(ctx.store) }, input);
      assert.deepEqual(answer(paged), answer(listed));
      assert.ok(paged.items.length > 0 || Number(paged.stats.matches) > 300, JSON.stringify(paged.stats).slice(0, 200));
      // Where the store lists candidates in path order (SQLite), the paged read never lists every candidate at once.
      if (ctx.store.candidatePages) assert.ok(calls.includes("candidatePages") && !calls.includes("candidateFiles"), calls.join(", "));
      else assert.deepEqual(calls, ["candidateFiles"]);
    });
  }

  test("the files whose path holds the query come first, wherever they sit in path order", async () => {
    const r = await searchCode(ctx, { query: "gadget_count", mode: "lexical", maxResults: 5 });
    const paths = r.items.map((i) => i.path);
    assert.ok(paths.includes("src/zz/gadget_count_late.cfg") && paths.includes("aaa/gadget_count.cfg"), paths.join(", "));
    assert.ok(!paths.includes("notes/gadget_count.txt"));
  });

  test("globs narrow the candidates after listing: the whole list is taken, as before", async () => {
    const calls: string[] = [];
    const r = await searchCode({ ...ctx, store: counting(ctx.store, calls) }, { query: "gadget_count", mode: "lexical", paths: ["src/**"] });
    assert.ok(r.items.every((i) => i.path.startsWith("src/")));
    assert.deepEqual(calls, ["candidateFiles"]);
  });
});

describe("path signatures", () => {
  const paths = ["a/b.c", "a/fork.c", "kernel/fork.c", "Makefile", "drivers/net/ethernet/intel/e1000/e1000_main.c", "x/ÜBER_fork.h", "zz/long_name_here.txt"];
  const rows = paths.map((path, i) => ({ id: i + 10, path })).sort((a, b) => (a.path < b.path ? -1 : 1)).map((r, i) => ({ ...r, id: i + 1 }));

  test("finds exactly the paths that hold a text, in id order", () => {
    const sig = new PathSignatures(rows);
    for (const text of ["fork", "fork.c", "e1000", "makefile", "über", "_name_", "nothing", "a/b", ".c"]) {
      const want = rows.filter((r) => r.path.toLowerCase().includes(text)).map((r) => r.id);
      assert.deepEqual(sig.holding(text, 100), text.length < 3 ? null : want, text);
    }
    assert.equal(sig.holding("fork", 1), null, "more than the limit");
  });

  test("says whether ids ascend with paths", () => {
    assert.equal(new PathSignatures(rows).pathOrdered, true);
    assert.equal(new PathSignatures([...rows, { id: 99, path: "aaa/new.c" }]).pathOrdered, false);
  });
});
