import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, describe, test } from "node:test";
import { cruise, type ICruiseResult } from "dependency-cruiser";

/**
 * The layer rules in .dependency-cruiser.cjs: `npm test` runs them over src/ (`npm run lint:layers`); here they run
 * over small trees that break each rule once, so a rule that stopped matching would be noticed.
 */
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const config = createRequire(import.meta.url)(join(ROOT, ".dependency-cruiser.cjs")) as { forbidden: unknown[]; options: Record<string, unknown> };

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Writes the files (path → imported paths) into a fresh tree and returns the names of the rules they break. */
async function violations(files: Record<string, string[]>): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "repoctx-layers-"));
  dirs.push(dir);
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    const lines = imports.map((to) => `import "${relative(path, to)}";`);
    writeFileSync(join(dir, path), `${lines.join("\n")}\nexport const x = 1;\n`);
  }
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const { tsConfig: _ts, ...options } = config.options;
    const result = await cruise(["src"], { ...options, validate: true, ruleSet: { forbidden: config.forbidden } } as never);
    const output = result.output as ICruiseResult;
    return [...new Set(output.summary.violations.map((v) => v.rule.name))].sort();
  } finally {
    process.chdir(cwd);
  }
}

/** `to` as a relative specifier from `from`, without extension (resolved as TypeScript resolves it). */
function relative(from: string, to: string): string {
  return `${"../".repeat(from.split("/").length - 1)}${to.replace(/\.ts$/, "")}`;
}

describe("layer rules", () => {
  test("the rules pass on a tree that keeps them", async () => {
    assert.deepEqual(
      await violations({
        "src/core/a.ts": [],
        "src/store/s.ts": ["src/core/a.ts"],
        "src/indexer/i.ts": ["src/store/s.ts", "src/core/a.ts"],
        "src/query/q.ts": ["src/indexer/i.ts", "src/store/s.ts"],
        "src/service/r.ts": ["src/query/q.ts"],
        "src/mcp/m.ts": ["src/service/r.ts", "src/query/q.ts"],
        "src/query/q2.ts": ["src/query/q3.ts"],
        "src/query/q3.ts": ["src/query/q2.ts"],
      }),
      [],
    );
  });

  test("each forbidden import is reported by its rule", async () => {
    assert.deepEqual(await violations({ "src/core/a.ts": ["src/store/s.ts"], "src/store/s.ts": [] }), ["core-imports-nothing"]);
    assert.deepEqual(await violations({ "src/store/s.ts": ["src/indexer/i.ts"], "src/indexer/i.ts": [] }), ["store-imports-only-core"]);
    assert.deepEqual(await violations({ "src/policy/p.ts": ["src/query/q.ts"], "src/query/q.ts": [] }), ["policy-imports-only-core"]);
    assert.deepEqual(await violations({ "src/config/c.ts": ["src/policy/p.ts"], "src/policy/p.ts": [] }), ["config-imports-only-core"]);
    assert.deepEqual(await violations({ "src/indexer/i.ts": ["src/query/q.ts"], "src/query/q.ts": [] }), ["indexer-below-query"]);
    assert.deepEqual(await violations({ "src/query/q.ts": ["src/mcp/m.ts"], "src/mcp/m.ts": [] }), ["query-below-service"]);
    assert.deepEqual(await violations({ "src/service/r.ts": ["src/cli/c.ts"], "src/cli/c.ts": [] }), ["service-below-protocol"]);
    assert.deepEqual(await violations({ "src/mcp/m.ts": ["src/store/s.ts"], "src/store/s.ts": [] }), ["mcp-through-service"]);
    assert.deepEqual(await violations({ "src/sources/t.ts": ["src/query/q.ts"], "src/query/q.ts": [] }), ["sources-below-service"]);
    assert.deepEqual(await violations({ "src/eval/e.ts": ["src/service/r.ts"], "src/service/r.ts": [] }), ["eval-below-service"]);
  });

  test("a cycle through two top-level folders is reported, one inside a folder is not", async () => {
    const names = await violations({ "src/query/q.ts": ["src/indexer/i.ts"], "src/indexer/i.ts": ["src/query/q.ts"] });
    assert.ok(names.includes("no-cycle-across-folders"), names.join(", "));
  });
});
