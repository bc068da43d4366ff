import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { TOOLS } from "../src/mcp/tools/index.js";
import { TOOL_NAMES } from "../src/mcp/tool-names.js";
import { linguistLanguages } from "../src/indexer/classify/linguist.js";
import { linguistExtract } from "../scripts/linguist-extract.mjs";
import { CLI } from "./helpers/cli.js";

// Startup (#19): what the CLI loads lazily must stay what it loads eagerly. No wall-time assertions here.

test("the tool names the CLI parses --tools with are the tool list's, in order", () => {
  assert.deepEqual([...TOOL_NAMES], TOOLS.map((t) => t.name));
});

test("the built Linguist extract holds the package's records the classifiers read", () => {
  const built = JSON.parse(readFileSync(new URL("../dist/indexer/classify/linguist-languages.json", import.meta.url), "utf8")) as unknown;
  assert.deepEqual(built, JSON.parse(JSON.stringify(linguistExtract())));
  assert.deepEqual(linguistLanguages().map((l) => l.name), (built as { name: string }[]).map((l) => l.name));
});

/**
 * Every module file a command loads, and the packages inside them (the hook runs on the loader's thread and writes
 * each file to fd 2 at once: a worker's process.stderr reaches the parent asynchronously, and a command that exits
 * right away could lose the last lines, as a loaded machine once showed): a package is a node_modules file loaded, or one
 * esbuild bundled into a loaded chunk (a bundle that is not minified names each module's source path in a comment).
 */
function loadedBy(args: readonly string[]): { files: string[]; packages: string[] } {
  const hook = `data:text/javascript,${encodeURIComponent('import{register}from"node:module";register("data:text/javascript,"+encodeURIComponent("import{writeSync}from\\"node:fs\\";export async function load(u,c,n){if(u.startsWith(\\"file:\\"))writeSync(2,\\"loaded \\"+u+\\"\\\\n\\");return n(u,c)}"))')}`;
  const r = spawnSync(process.execPath, ["--import", hook, CLI, ...args], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const files = r.stderr.split("\n").filter((l) => l.startsWith("loaded ")).map((l) => fileURLToPath(l.slice("loaded ".length)));
  const packages = new Set<string>();
  for (const f of files) {
    if (f.includes("/node_modules/")) packages.add(f);
    else for (const m of readFileSync(f, "utf8").matchAll(/^\/\/ (node_modules\/\S+)$/gm)) packages.add(m[1]!);
  }
  return { files, packages: [...packages] };
}

test("--version loads neither the MCP SDK, zod, the store nor linguist-languages", () => {
  const { files, packages } = loadedBy(["--version"]);
  assert.ok(files.some((f) => f.endsWith("/dist/cli/main.js")), files.join(", "));
  assert.ok(packages.some((p) => p.includes("commander")), `the check sees packages (commander is one): ${packages.slice(0, 5).join(", ")}`);
  for (const pkg of ["@modelcontextprotocol", "/zod/", "better-sqlite3", "linguist-languages"]) {
    assert.ok(!packages.some((l) => l.includes(pkg)), `${pkg} loaded: ${packages.filter((l) => l.includes(pkg)).slice(0, 3).join(", ")}`);
  }
});
