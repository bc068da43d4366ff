import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
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

test("--version loads neither the MCP SDK, zod, the store nor linguist-languages", () => {
  const hook = `data:text/javascript,${encodeURIComponent('import{register}from"node:module";register("data:text/javascript,"+encodeURIComponent("export async function load(u,c,n){if(/node_modules/.test(u))process.stderr.write(\\"loaded \\"+u+\\"\\\\n\\");return n(u,c)}"))')}`;
  const r = spawnSync(process.execPath, ["--import", hook, CLI, "--version"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const loaded = r.stderr.split("\n").filter((l) => l.startsWith("loaded "));
  assert.ok(loaded.length > 0, "the hook saw no package (commander is one)");
  for (const pkg of ["@modelcontextprotocol", "/zod/", "better-sqlite3", "linguist-languages"]) {
    assert.ok(!loaded.some((l) => l.includes(pkg)), `${pkg} loaded: ${loaded.filter((l) => l.includes(pkg)).slice(0, 3).join(", ")}`);
  }
});
