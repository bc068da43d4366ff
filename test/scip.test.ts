import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { defaultReadPolicy } from "../src/config/schema.js";
import { buildIndex, updateIndex } from "../src/indexer/pipeline.js";
import { decodeScip, ScipDecodeError } from "../src/indexer/scip/decode.js";
import { ScipLoadError } from "../src/indexer/scip/load.js";
import { definitionOf, namedDescriptor, parseDescriptors } from "../src/indexer/scip/symbol.js";
import { findSymbol } from "../src/query/symbols.js";
import { inspectIndex } from "../src/query/inspect.js";
import type { QueryContext } from "../src/query/context.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { silentLogger } from "../src/core/log.js";
import { currentHead } from "../src/sources/git-head.js";
import { commitFiles, git } from "./helpers/fixture.js";
import { PROJECT_ROOT } from "./helpers/cli.js";
import { openClient } from "./helpers/harness.js";

/**
 * The SCIP layer (issue #18 part 3) on real code: scip-typescript and scip-python (dev dependencies) index a
 * repository built here; repoctx ingests their index.scip and its answers name exactly what each use refers to.
 */

const BIN = join(PROJECT_ROOT, "node_modules", ".bin");

function scipTypescript(root: string): void {
  execFileSync(join(BIN, "scip-typescript"), ["index"], { cwd: root, stdio: "pipe" });
}

function scipPython(root: string): void {
  execFileSync(join(BIN, "scip-python"), ["index", ".", "--project-name", "demo", "--project-version", "1"], { cwd: root, stdio: "pipe" });
}

const TS = {
  "tsconfig.json": JSON.stringify({ compilerOptions: { target: "es2020", module: "commonjs", strict: true }, include: ["src"] }),
  "src/shapes.ts": [
    "export function render(s: string): string {",
    "  return `<${s}>`;",
    "}",
    "",
    "export class Box {",
    "  render(): string {",
    "    return render(\"box\");",
    "  }",
    "}",
    "",
  ].join("\n"),
  "src/page.ts": [
    'import { render, Box } from "./shapes";',
    "",
    "const draw = render;",
    "export function page(b: Box): string {",
    "  return render(\"page\") + b.render() + new Box().render() + draw(\"x\");",
    "}",
    "",
  ].join("\n"),
  "src/other.ts": [
    "function render(n: number): number {",
    "  return n * 2;",
    "}",
    "export const twice = render(3);",
    "",
  ].join("\n"),
};

const PY = {
  "pkg/__init__.py": "",
  "pkg/core.py": ["def helper(x):", "    return x", "", "", "class Thing:", "    def helper(self):", "        return helper(self)", ""].join("\n"),
  "pkg/use.py": ["from pkg.core import helper, Thing", "", "", "def main(t: Thing):", "    callback = helper", "    return helper(1), t.helper(), Thing().helper(), callback", ""].join("\n"),
};

interface Built {
  base: string;
  root: string;
  store: SqliteStore;
  ctx: QueryContext;
}

async function buildWith(files: Record<string, string>, scip: (root: string) => void): Promise<Built> {
  const base = mkdtempSync(join(tmpdir(), "repoctx-scip-"));
  const root = join(base, "repo");
  commitFiles(root, { ...files, ".gitignore": "index.scip\n" }, "initial");
  scip(root);
  const store = SqliteStore.open(join(base, "index.db"));
  const built = await buildIndex({ root, store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes });
  const ctx = { store, index: (await store.getReadyIndex(built.repo.repoId))!, policy: defaultReadPolicy() };
  return { base, root, store, ctx };
}

async function reindex(b: Built, opts: { scip?: string[] } = {}) {
  const r = await buildIndex({ root: b.root, store: b.store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes, ...opts });
  b.ctx = { ...b.ctx, index: (await b.store.getReadyIndex(r.repo.repoId))! };
  return r;
}

const refsOf = async (ctx: QueryContext, symbol: string) => {
  const r = await findSymbol(ctx, { symbol, intent: "references", maxResults: 50 });
  return { r, lines: r.items.filter((h) => h.matchType === "syntactic_reference").map((h) => `${h.path}:${h.startLine}:${h.column}:${h.confidence}`) };
};

describe("SCIP index from scip-typescript", () => {
  let b: Built;
  before(async () => {
    b = await buildWith(TS, scipTypescript);
  });
  after(async () => {
    await b.store.close();
    rmSync(b.base, { recursive: true, force: true });
  });

  test("the build reads index.scip at the root and marks the files it resolved", async () => {
    const files = await b.store.listFiles(b.ctx.index.id, {});
    const byPath = new Map(files.map((f) => [f.path, f]));
    for (const p of ["src/shapes.ts", "src/page.ts", "src/other.ts"]) {
      assert.equal(byPath.get(p)?.symbolExtractor, "scip", p);
      assert.match(byPath.get(p)!.symbolDetail ?? "", /SCIP index \(scip-typescript/);
    }
    assert.equal(b.ctx.index.stats?.scip?.files, 3);
    assert.equal(b.ctx.index.stats?.scip?.stale, 0);
    const inspected = (await inspectIndex(b.ctx)).items[0]!.symbols.scip;
    assert.deepEqual({ ...inspected, indexes: inspected?.indexes.map((x) => x.split(" ")[0]) }, { indexes: ["scip-typescript"], documents: 3, filesResolved: 3, filesChangedSince: 0, warnings: [] });
  });

  test("a shared name's uses are exact and each names its definition; a qualified name keeps the others apart", async () => {
    const all = await refsOf(b.ctx, "render");
    assert.deepEqual(all.lines.sort(), [
      "src/other.ts:4:22:exact",
      "src/page.ts:1:10:exact",
      "src/page.ts:3:14:exact",
      "src/page.ts:5:10:exact",
      "src/page.ts:5:29:exact",
      "src/page.ts:5:50:exact",
      "src/shapes.ts:7:12:exact",
    ]);
    const reasonAt = (line: number, column: number) => all.r.items.find((h) => h.path === "src/page.ts" && h.startLine === line && h.column === column)?.reason;
    assert.equal(reasonAt(3, 14), "value of render in src/shapes.ts (resolved by the SCIP index)");
    assert.equal(reasonAt(5, 29), "call of Box#render in src/shapes.ts (resolved by the SCIP index)");
    const method = await refsOf(b.ctx, "Box#render");
    assert.deepEqual(method.lines.sort(), ["src/page.ts:5:29:exact", "src/page.ts:5:50:exact"]);
    assert.ok(method.r.warnings.some((w) => w.code === "references_kept_apart" && w.message.startsWith("5 ")), JSON.stringify(method.r.warnings));
  });

  test("definitions the SCIP index confirms are exact and say so; served over MCP the same", async () => {
    const defs = await findSymbol(b.ctx, { symbol: "Box", intent: "definition" });
    assert.equal(defs.items.length, 1);
    assert.equal(defs.items[0]!.confidence, "exact");
    assert.equal(defs.items[0]!.reason, "definition of Box confirmed by the SCIP index");
    const client = await openClient({ store: b.store, root: b.ctx.index.rootPath, policy: defaultReadPolicy(), logger: silentLogger, readHead: () => currentHead(b.root) });
    try {
      const res = (await client.callTool({ name: "find_symbol", arguments: { verbosity: "full", symbol: "Box#render", intent: "references" } })) as { structuredContent: { data: { hits: { confidence: string; startLine: number }[] } } };
      assert.deepEqual(res.structuredContent.data.hits.map((h) => `${h.startLine}:${h.confidence}`), ["5:exact", "5:exact"]);
    } finally {
      await client.close();
    }
  });

  test("a file changed since the SCIP index was made falls back to tree-sitter and says why; the others stay exact", async () => {
    writeFileSync(join(b.root, "src/page.ts"), `// a new first line\n${TS["src/page.ts"]}`);
    git(b.root, ["commit", "-qam", "edit page"]);
    const r = await reindex(b, { scip: [join(b.root, "index.scip")] });
    assert.equal(r.stats.scip?.stale, 1);
    const page = (await b.store.listFiles(b.ctx.index.id, {})).find((f) => f.path === "src/page.ts")!;
    assert.equal(page.symbolExtractor, "tree-sitter");
    assert.match(page.symbolDetail ?? "", /does not match this file/);
    const method = await refsOf(b.ctx, "Box#render");
    // Tree-sitter's member calls are not resolved to Box: medium, never exact.
    assert.ok(method.lines.every((l) => l.startsWith("src/page.ts:6:") && !l.endsWith(":exact")), method.lines.join(" "));
    const fn = await refsOf(b.ctx, "render");
    assert.ok(fn.lines.includes("src/shapes.ts:7:12:exact") && fn.lines.includes("src/other.ts:4:22:exact"));
  });

  test("a later build with the same SCIP index reuses its rows; without one the files are tree-sitter's again", async () => {
    const again = await reindex(b);
    assert.ok((again.stats.reusedFiles ?? 0) >= 3);
    assert.equal((await b.store.listFiles(b.ctx.index.id, {})).find((f) => f.path === "src/shapes.ts")?.symbolExtractor, "scip");
    rmSync(join(b.root, "index.scip"));
    const without = await reindex(b);
    assert.equal(without.stats.scip, undefined);
    const files = await b.store.listFiles(b.ctx.index.id, {});
    assert.ok(files.every((f) => f.symbolExtractor !== "scip"));
    assert.ok(files.every((f) => !(f.symbolDetail ?? "").includes("SCIP")));
  });

  test("a named SCIP file that is not one is an input error before anything is indexed", async () => {
    const bogus = join(b.base, "bogus.scip");
    writeFileSync(bogus, "not protobuf at all\n");
    await assert.rejects(reindex(b, { scip: [bogus] }), (e: unknown) => e instanceof ScipLoadError && e.category === "invalid_input" && /not a SCIP index/.test(e.message));
    await assert.rejects(reindex(b, { scip: [join(b.base, "missing.scip")] }), ScipLoadError);
  });
});

describe("SCIP index from scip-python", () => {
  let b: Built;
  before(async () => {
    b = await buildWith(PY, scipPython);
  });
  after(async () => {
    await b.store.close();
    rmSync(b.base, { recursive: true, force: true });
  });

  test("the module function and the same-named method are told apart exactly, imports and values included", async () => {
    const fn = await refsOf(b.ctx, "core.helper");
    assert.deepEqual(fn.lines.sort(), ["pkg/core.py:7:16:exact", "pkg/use.py:1:22:exact", "pkg/use.py:5:16:exact", "pkg/use.py:6:12:exact"].sort());
    const method = await refsOf(b.ctx, "Thing#helper");
    assert.deepEqual(method.lines.sort(), ["pkg/use.py:6:25:exact", "pkg/use.py:6:43:exact"].sort());
    const cls = await refsOf(b.ctx, "Thing");
    assert.deepEqual(cls.lines.sort(), ["pkg/use.py:1:30:exact", "pkg/use.py:4:13:exact", "pkg/use.py:6:35:exact"].sort());
  });
});

describe("SCIP decoding", () => {
  test("symbols: the last descriptor, escaped names, locals and constructors", () => {
    assert.deepEqual(namedDescriptor("scip-typescript npm . . src/`a.ts`/Box#render()."), { name: "render", suffix: "method" });
    assert.deepEqual(namedDescriptor("scip-python python demo 1 `pkg.core`/Thing#"), { name: "Thing", suffix: "type" });
    assert.deepEqual(namedDescriptor("scip-go gomod example.com/my  pkg v1 `example.com/m`/Run()."), { name: "Run", suffix: "method" });
    assert.equal(namedDescriptor("scip-python python demo 1 `pkg.core`/__init__:"), null, "a module is no symbol the index keeps");
    assert.equal(namedDescriptor("scip-typescript npm . . src/`a.ts`/greet().(name)"), null, "a parameter neither");
    assert.equal(parseDescriptors("local 12"), null);
    assert.deepEqual(parseDescriptors("a b c d `we``ird`#")?.[0], { name: "we`ird", suffix: "type" });
    assert.equal(definitionOf("scip-typescript npm . . src/`a.ts`/Box#`<constructor>`()."), "scip-typescript npm . . src/`a.ts`/Box#");
  });

  test("bytes that are not a SCIP index are refused, a truncated one too", () => {
    assert.throws(() => decodeScip(new TextEncoder().encode("hello world, plainly text")), ScipDecodeError);
    assert.throws(() => decodeScip(new Uint8Array([0x12, 0x40, 0x0a])), ScipDecodeError);
  });
});

describe("SCIP index made at a monorepo's root, served for one package of it", () => {
  test("document paths are re-based onto the package; the others are counted and left out", async () => {
    const base = mkdtempSync(join(tmpdir(), "repoctx-scip-mono-"));
    try {
      const mono = join(base, "mono");
      commitFiles(mono, { ...Object.fromEntries(Object.entries(TS).map(([p, t]) => [`packages/app/${p}`, t])), "packages/other/src/x.ts": "export const x = 1;\n", "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true }, include: ["packages/*/src"] }) }, "initial");
      scipTypescript(mono);
      const root = join(mono, "packages", "app");
      const store = SqliteStore.open(join(base, "index.db"));
      try {
        const r = await buildIndex({ root, store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes, scip: [join(mono, "index.scip")] });
        assert.equal(r.stats.scip?.files, 3, JSON.stringify(r.stats.scip));
        assert.ok(r.stats.scip?.warnings.some((w) => /1 document\(s\) lie outside/.test(w)), JSON.stringify(r.stats.scip?.warnings));
      } finally {
        await store.close();
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe("an in-place update beside a SCIP index", () => {
  test("goes ahead while index.scip is the one the index was built with, touched or not; a new one takes a build", async () => {
    const b = await buildWith(TS, scipTypescript);
    try {
      const opts = { root: b.root, store: b.store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes };
      writeFileSync(join(b.root, "src/other.ts"), `${TS["src/other.ts"]}export const more = 1;\n`);
      git(b.root, ["commit", "-qam", "edit other"]);
      assert.ok(await updateIndex(opts), "same index.scip: the fast path");
      const scipPath = join(b.root, "index.scip");
      utimesSync(scipPath, new Date(), new Date(Date.now() + 5000));
      writeFileSync(join(b.root, "src/other.ts"), `${TS["src/other.ts"]}export const more = 2;\n`);
      git(b.root, ["commit", "-qam", "edit other again"]);
      assert.ok(await updateIndex(opts), "touched, same bytes: still the fast path");
      writeFileSync(scipPath, Buffer.concat([readFileSync(scipPath), Buffer.from([0x12, 0x00])]));
      assert.equal(await updateIndex(opts), null, "different bytes: a build reads it");
    } finally {
      await b.store.close();
      rmSync(b.base, { recursive: true, force: true });
    }
  });
});
