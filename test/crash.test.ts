import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { silentLogger } from "../src/core/log.js";
import { runTool } from "../src/service/run-tool.js";
import { findTool } from "../src/mcp/tools/index.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { CLI } from "./helpers/cli.js";
import { git } from "./helpers/fixture.js";
import { testDeps } from "./helpers/deps.js";

/** Enough files that a build takes a few seconds and uses symbol worker threads. */
const MODULES = 60;
const FILES_PER_MODULE = 40;
const KILLS = 21;

const PROBES: [string, Record<string, unknown>][] = [
  ["search_code", { query: "computeTotal" }],
  ["search_code", { query: "return acc \\+ \\w+", regex: true }],
  ["find_symbol", { symbol: "Ledger#computeTotal", intent: "call_sites" }],
  ["get_file_slice", { path: "mod07/file013.ts", startLine: 1, endLine: 5 }],
  ["inspect_index", {}],
];

function runIndex(root: string, store: string): { child: ReturnType<typeof spawn>; done: Promise<number | null> } {
  // --full: every run is a real build (an unchanged tree would otherwise be a no-op in-place update).
  const child = spawn(process.execPath, [CLI, "index", root, "--store", store, "--quiet", "--full"], { stdio: "ignore" });
  const done = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, done };
}

/** Answers of the ready index, without the parts that legitimately differ between two builds of the same tree. */
async function answers(root: string, storePath: string): Promise<string> {
  const store = SqliteStore.open(storePath);
  try {
    assert.equal(store.integrityCheck(), "ok");
    const deps = testDeps({ store, root, logger: silentLogger, readHead: async () => null });
    const out: unknown[] = [];
    for (const [tool, args] of PROBES) {
      const env = await runTool(findTool(tool)!, args, deps);
      assert.equal(env.ok, true, `${tool}: ${JSON.stringify(env.data)}`);
      const data = tool === "inspect_index" ? { ...(env.data.index as Record<string, unknown>), builtAt: null, buildDurationMs: null, store: null } : env.data;
      out.push({ tool, indexVersion: env.indexVersion, data, evidence: env.evidence });
    }
    return JSON.stringify(out);
  } finally {
    await store.close();
  }
}

describe("crash safety: kill -9 during index builds", () => {
  let dir: string;
  let root: string;
  let storePath: string;
  let baseline: string;
  let buildMs: number;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "repoctx-crash-"));
    root = join(dir, "repo");
    git(dir, ["init", "-q", "-b", "main", root]);
    for (let m = 0; m < MODULES; m++) {
      const mod = `mod${String(m).padStart(2, "0")}`;
      mkdirSync(join(root, mod));
      for (let f = 0; f < FILES_PER_MODULE; f++) {
        const name = `file${String(f).padStart(3, "0")}`;
        writeFileSync(
          join(root, mod, `${name}.ts`),
          `import { Ledger } from "../ledger";\n\nexport class Account${m}_${f} {\n  constructor(private readonly ledger: Ledger) {}\n\n` +
            `  balance(entries: number[]): number {\n    return this.ledger.computeTotal(entries.map((e) => e * ${f + 1}));\n  }\n}\n`,
        );
      }
    }
    writeFileSync(
      join(root, "ledger.ts"),
      "export class Ledger {\n  computeTotal(values: number[]): number {\n    return values.reduce((acc, v) => {\n      return acc + v;\n    }, 0);\n  }\n}\n",
    );
    git(root, ["add", "-A"]);
    git(root, ["commit", "-q", "-m", "accounts"]);
    storePath = join(dir, "index.db");
    const t0 = Date.now();
    assert.equal(await runIndex(root, storePath).done, 0);
    buildMs = Date.now() - t0;
    baseline = await answers(root, storePath);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test(`${KILLS} builds killed at spread-out moments leave the previous index answering identically`, async () => {
    let killedMidBuild = 0;
    for (let i = 0; i < KILLS; i++) {
      // Spread the kill points over the whole build, from process start to just past a typical finish.
      const delay = Math.round(((i + 0.5) / KILLS) * buildMs * 1.1);
      const { child, done } = runIndex(root, storePath);
      await new Promise((r) => setTimeout(r, delay));
      const alive = child.exitCode === null;
      child.kill("SIGKILL");
      await done;
      if (alive) killedMidBuild += 1;
      assert.equal(await answers(root, storePath), baseline, `after a kill at ${delay} ms`);
    }
    assert.ok(killedMidBuild >= KILLS / 2, `only ${killedMidBuild} kills landed during a build`);
  });

  test("the next build cleans up what the killed ones left and publishes the same index", async () => {
    assert.equal(await runIndex(root, storePath).done, 0);
    const store = SqliteStore.open(storePath);
    try {
      assert.equal(store.buildCount("building"), 0, "abandoned builds were removed");
      assert.equal(store.buildCount("ready"), 1);
      assert.equal(store.integrityCheck(), "ok");
    } finally {
      await store.close();
    }
    assert.equal(await answers(root, storePath), baseline);
  });
});
