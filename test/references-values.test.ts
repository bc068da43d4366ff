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
