import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { SymbolExtractor } from "../src/indexer/symbols/extract.js";
import { findSymbol } from "../src/query/symbols.js";
import type { QueryContext } from "../src/query/context.js";
import { indexed } from "./helpers/indexed.js";

const CLI = `import click
from .core import Skipped, PrintHelp as PH

DEFAULT = 3

@click.command()
def run_command(info, x=DEFAULT):
    y = info.value
    for item, (a, b) in pairs(x):
        y += item
    try:
        helper(run_command)
    except Skipped as e:
        raise PrintHelp
    if isinstance(e, (Skipped, PH)):
        return run_command.params
    squares = [n * n for n in range(y)]
    cli.add_command(run_command)
    return make(name=y, value=run_command, rest=squares)

def helper(cb):
    global DEFAULT
    DEFAULT = cb
    return lambda z: z + DEFAULT

def shadow(run_command):
    return run_command

handler = run_command
`;

describe("Python names used as values", () => {
  let refs: { line: number; kind: string; name: string; enclosing: string | null }[];

  before(async () => {
    const ex = await SymbolExtractor.create();
    refs = (await ex.extract("python", "pkg/cli.py", CLI)).references;
  });

  const at = (name: string) => refs.filter((r) => r.name === name).map((r) => `${r.line}:${r.kind}`);

  test("a function passed, read, listed and assigned is referenced at each use, as a value", () => {
    assert.deepEqual(at("run_command"), ["12:value", "16:value", "18:value", "19:value", "29:value"]);
  });

  test("exceptions caught, raised bare and checked with isinstance, a decorator's receiver, a global written", () => {
    assert.deepEqual(at("Skipped"), ["2:import", "13:value", "15:value"]);
    assert.deepEqual(at("PrintHelp"), ["2:import", "14:value"]);
    assert.deepEqual(at("PH"), ["15:value"]);
    assert.deepEqual(at("click"), ["1:import", "6:value"]);
    assert.deepEqual(at("DEFAULT"), ["7:value", "23:value", "24:value"]);
  });

  test("parameters, loop and comprehension targets, destructured names, lambda parameters, labels and shadowing parameters are no references", () => {
    for (const local of ["info", "x", "y", "item", "a", "b", "e", "n", "squares", "cb", "z", "name", "rest"]) assert.deepEqual(at(local), [], local);
    assert.ok(!refs.some((r) => r.name === "run_command" && r.enclosing?.endsWith("shadow")), "the parameter named run_command shadows the function");
  });
});

describe("find_symbol references include value uses", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({ "pkg/cli.py": CLI, "pkg/core.py": "class Skipped(Exception):\n    pass\n\nclass PrintHelp(Exception):\n    pass\n" }));
  });
  after(async () => close());

  test("every use of run_command, each with its kind, none missed silently", async () => {
    const r = await findSymbol(ctx, { symbol: "run_command", intent: "references", maxResults: 50 });
    const lines = r.items.filter((h) => h.matchType === "syntactic_reference").map((h) => `${h.startLine}:${h.kind}`);
    assert.deepEqual(lines.sort(), ["12:value", "16:value", "18:value", "19:value", "29:value"].sort());
    assert.equal(r.stats.truncated, false);
  });
});

const ROUTES = `import { handler, other as o } from "./h";
const express = require("express");
export function runCommand(info, x = DEFAULT) {
  let y = info.value;
  for (const item of items(x)) { y += item; }
  try { helper(runCommand); } catch (e) { if (e instanceof Skipped) throw PrintHelp; }
  const { a, b: c, ...rest } = obj;
  const arr = [runCommand, a, c];
  router.use(handler);
  return make({ runCommand, value: runCommand, rest, arr });
}
res.location = function location(url) { return url; };
app.get("/", runCommand);
export { runCommand as rc };
`;

describe("JavaScript and TypeScript names used as values", () => {
  for (const language of ["javascript", "typescript"]) {
    test(`${language}: a function passed, listed, put in an object and re-exported is referenced at each use; locals are not`, async () => {
      const ex = await SymbolExtractor.create();
      const refs = (await ex.extract(language, language === "javascript" ? "routes.js" : "routes.ts", ROUTES)).references;
      const at = (name: string) => refs.filter((r) => r.name === name).map((r) => `${r.line}:${r.kind}`);
      assert.deepEqual(at("runCommand"), ["6:value", "8:value", "10:value", "10:value", "13:value", "14:value"]);
      // TypeScript's query reads `const x = require(…)` as a constant definition, JavaScript's as an import.
      assert.deepEqual(at("express"), language === "javascript" ? ["2:import"] : [], "a require stays what it was");
      assert.deepEqual(at("Skipped"), ["6:value"]);
      assert.deepEqual(at("PrintHelp"), ["6:value"]);
      assert.deepEqual(at("handler"), ["1:import", "9:value"]);
      for (const local of ["info", "x", "y", "item", "e", "a", "c", "rest", "arr", "url", "rc", "o"]) assert.deepEqual(at(local), [], local);
      assert.ok(!refs.some((r) => r.name === "location" && r.kind === "value"), "a named function expression's own name is no use");
    });
  }
});

describe("a use as a value in a language whose references are calls, imports, types and members", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({
      "go.mod": "module example.com/srv\n\ngo 1.21\n",
      "main.go": 'package main\n\nimport "net/http"\n\nfunc handler(w http.ResponseWriter, r *http.Request) {}\n\nfunc main() {\n\thttp.HandleFunc("/", handler)\n\thandler(nil, nil)\n}\n',
    }));
  });
  after(async () => close());

  test("is listed as a lexical mention that says why, beside the parsed call", async () => {
    const r = await findSymbol(ctx, { symbol: "handler", intent: "references", maxResults: 50 });
    const byLine = new Map(r.items.map((h) => [h.startLine, h]));
    assert.equal(byLine.get(9)?.matchType, "syntactic_reference");
    const value = byLine.get(8);
    assert.equal(value?.matchType, "lexical_mention", JSON.stringify(r.items));
    assert.match(value!.reason, /use as a value .* is not parsed in this language/);
    assert.equal(r.items.filter((h) => h.startLine === 9).length, 1, "a line a reference covers is not repeated as text");
    const calls = await findSymbol(ctx, { symbol: "handler", intent: "call_sites", maxResults: 50 });
    assert.deepEqual(calls.items.map((h) => h.startLine), [9]);
  });
});

describe("the languages said to have value references are the ones whose queries capture them", () => {
  test("VALUE_REFERENCE_LANGUAGES and @reference.value agree", async () => {
    const { LANGUAGES } = await import("../src/indexer/symbols/languages.js");
    const { queryText } = await import("../src/indexer/symbols/extract.js");
    const { VALUE_REFERENCE_LANGUAGES } = await import("../src/core/symbols.js");
    for (const [language, spec] of Object.entries(LANGUAGES)) {
      const text = [spec.query, ...(spec.extraQueries ?? [])].map(queryText).join("\n");
      assert.equal(/@reference\.value/.test(text), VALUE_REFERENCE_LANGUAGES.has(language), language);
    }
  });
});
