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
      "main.c": "#include <signal.h>\n\nstatic void handler(int sig) {}\n\nint main(void) {\n\tsignal(SIGINT, handler);\n\thandler(0);\n\treturn 0;\n}\n",
    }));
  });
  after(async () => close());

  test("is listed as a lexical mention that says why, beside the parsed call", async () => {
    const r = await findSymbol(ctx, { symbol: "handler", intent: "references", maxResults: 50 });
    const byLine = new Map(r.items.map((h) => [h.startLine, h]));
    assert.equal(byLine.get(7)?.matchType, "syntactic_reference");
    const value = byLine.get(6);
    assert.equal(value?.matchType, "lexical_mention", JSON.stringify(r.items));
    assert.match(value!.reason, /use as a value .* is not parsed in this language/);
    assert.equal(r.items.filter((h) => h.startLine === 7).length, 1, "a line a reference covers is not repeated as text");
    const calls = await findSymbol(ctx, { symbol: "handler", intent: "call_sites", maxResults: 50 });
    assert.deepEqual(calls.items.map((h) => h.startLine), [7]);
  });
});

const GO = `package main

import (
\t"fmt"
\t"net/http"
)

const Limit = 10

func handler(w http.ResponseWriter, r *http.Request) {}

func Run(items []string) {
\thttp.HandleFunc("/", handler)
\tcb := handler
\tfor i, item := range items {
\t\tfmt.Println(i, item, Limit, Config{Limit: Limit})
\t}
\tfn := func(handler int) int { return handler + Limit }
\t_ = fn
\tcb(nil, nil)
}
`;

const RUST = `use crate::filter::SizeFilter;

const LIMIT: usize = 10;

fn parse_size(s: &str) -> usize { s.len() }

fn main() {
    let value_parser = SizeFilter::from_string;
    let f = parse_size;
    if let Some(x) = items().first() { println!("{} {}", x, LIMIT); }
    for item in list { consume(item, value_parser, f); }
    let cb = |parse_size: usize| parse_size + LIMIT;
    register(parse_size);
    let parse_size = parse_size("x") + 1;
    consume(parse_size);
}
`;

const JAVA = `package com.acme;

import java.util.List;

public class QuoteService {
    private static final int LIMIT = 10;
    private final Repo repo;

    public QuoteService(Repo repo) { this.repo = repo; }

    @Retry(times = LIMIT)
    public int quote(List<String> items) {
        int total = LIMIT;
        for (String item : items) { total += Pricing.price(item); }
        Runnable r = () -> register(QuoteService::quote, Defaults.VALUE);
        items.forEach(x -> consume(x, LIMIT));
        return total;
    }
}
`;

describe("Go, Rust and Java names used as values", () => {
  const refs = async (language: string, path: string, text: string) => {
    const ex = await SymbolExtractor.create();
    return (await ex.extract(language, path, text)).references;
  };
  const at = (list: { name: string; line: number; kind: string }[], name: string) => list.filter((r) => r.name === name).map((r) => `${r.line}:${r.kind}`);

  test("Go: a function passed and assigned, a constant read and a package receiver; locals, parameters and literal keys are not", async () => {
    const r = await refs("go", "main.go", GO);
    assert.deepEqual(at(r, "handler"), ["13:value", "14:value"], "the parameter named handler in the literal shadows it");
    const limits = r.filter((x) => x.name === "Limit").map((x) => `${x.line}:${x.column}:${x.kind}`);
    assert.deepEqual(limits, ["16:24:value", "16:45:value", "18:49:value"], "read three times; the struct literal's key Limit is no use");
    assert.deepEqual(at(r, "fmt"), ["4:import", "16:value"]);
    for (const local of ["cb", "i", "item", "fn", "w", "r", "items"]) assert.deepEqual(at(r, local), [], local);
  });

  test("Rust: a path and a function used as values, a constant in a macro; let, if-let, loop and closure bindings are not", async () => {
    const r = await refs("rust", "src/main.rs", RUST);
    assert.deepEqual(at(r, "from_string"), ["8:value"]);
    assert.deepEqual(at(r, "SizeFilter"), ["1:import", "8:value"]);
    assert.deepEqual(at(r, "parse_size"), ["9:value", "13:value", "14:call"], "the closure parameter shadows it; a let shadows it from the end of its statement");
    assert.deepEqual(at(r, "LIMIT"), ["10:value", "12:value"]);
    assert.deepEqual(at(r, "filter"), [], "a path inside use is an import, not a value");
    for (const local of ["value_parser", "f", "x", "item", "cb", "s"]) assert.deepEqual(at(r, local), [], local);
  });

  test("Java: constants read, classes as receivers, an annotation's argument; parameters, locals, lambda parameters and fields' own names are not", async () => {
    const r = await refs("java", "src/main/java/com/acme/QuoteService.java", JAVA);
    assert.deepEqual(at(r, "LIMIT"), ["11:value", "13:value", "16:value"]);
    assert.deepEqual(at(r, "Pricing"), ["14:value"]);
    assert.deepEqual(at(r, "QuoteService"), ["15:value"]);
    assert.deepEqual(at(r, "Defaults"), ["15:value"]);
    assert.deepEqual(at(r, "repo"), ["9:reference"], "this.repo is the field; the parameter repo is a local");
    for (const local of ["items", "total", "item", "r", "x", "times"]) assert.deepEqual(at(r, local).filter((k) => k.endsWith(":value")), [], local);
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

describe("references of a shared name, resolved by the file's own definitions and imports", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({
      "pkg/__init__.py": "",
      "pkg/a.py": "def render(x):\n    return x\n\ndef again():\n    return render(2)\n",
      "pkg/b.py": "def render(x):\n    return -x\n",
      "pkg/use.py": "from .a import render\n\nprint(render(1))\n",
      "pkg/other.py": "from pkg.b import render\n\nprint(render(1))\n",
      "pkg/member.py": "def go(view):\n    return view.render(1)\n",
      "web/lib/a.js": "export function paint(x) { return x; }\n",
      "web/lib/b.js": "export function paint(x) { return -x; }\n",
      "web/app.js": 'import { paint } from "./lib/a";\npaint(1);\n',
      "web/bare.js": "paint(2);\n",
    }));
  });
  after(async () => close());

  const lines = (items: { path: string; startLine: number; confidence: string }[]) => items.map((h) => `${h.path}:${h.startLine}:${h.confidence}`).sort();

  test("a qualified name keeps the references resolved to it high and leaves the other definition's apart", async () => {
    const r = await findSymbol(ctx, { symbol: "pkg.a.render", intent: "references", maxResults: 50 });
    const refs = r.items.filter((h) => h.matchType === "syntactic_reference");
    assert.deepEqual(lines(refs), ["pkg/a.py:5:high", "pkg/member.py:2:medium", "pkg/use.py:1:high", "pkg/use.py:3:high"]);
    assert.ok(r.warnings.some((w) => w.code === "references_kept_apart" && /^2 reference/.test(w.message)), JSON.stringify(r.warnings));
    assert.match(refs.find((h) => h.path === "pkg/use.py" && h.startLine === 3)!.reason, /pkg\.a\.render \(imported from pkg\/a\.py\)/);
    assert.match(refs.find((h) => h.path === "pkg/member.py")!.reason, /does not say which/);
  });

  test("an unqualified shared name is ambiguous: each use says which definition it resolved to, an unresolved one is medium", async () => {
    const r = await findSymbol(ctx, { symbol: "paint", intent: "references", maxResults: 50 });
    assert.ok(r.stats.ambiguous);
    const refs = r.items.filter((h) => h.matchType === "syntactic_reference");
    assert.deepEqual(lines(refs), ["web/app.js:1:high", "web/app.js:2:high", "web/bare.js:1:medium"]);
    assert.match(refs.find((h) => h.path === "web/app.js" && h.startLine === 2)!.reason, /paint \(imported from web\/lib\/a\.js\)/);
  });
});

describe("lexical search shows every matching line of a file up to maxResults, and says when it cut", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    const body = Array.from({ length: 9 }, (_, i) => `const v${i} = retryBudget + ${i};`).join("\n");
    ({ ctx, close } = await indexed({ "src/budget.js": `${body}\n`, "src/other.js": "export const x = retryBudget;\n" }));
  });
  after(async () => close());

  test("nine lines in one file are nine hits; with room for five, the rest is counted and the answer is truncated", async () => {
    const { searchCode } = await import("../src/query/search.js");
    const all = await searchCode(ctx, { query: "retryBudget", mode: "lexical", maxResults: 20 });
    const budget = all.items.find((g) => g.path === "src/budget.js")!;
    assert.equal(budget.hits.length, 9);
    assert.equal(budget.moreLines, undefined);
    assert.equal(all.stats.truncated, false);
    const cut = await searchCode(ctx, { query: "retryBudget", mode: "lexical", maxResults: 5 });
    const first = cut.items[0]!;
    assert.equal(first.path, "src/budget.js");
    assert.equal(first.hits.length, 5);
    assert.equal(first.moreLines, 4);
    assert.equal(cut.stats.truncated, true);
  });
});

describe("risk hints: one per thing per category", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({ "app/store.py": 'def drop_all(db): return db.execute("DROP TABLE orders")\n' }));
  });
  after(async () => close());

  test("a deletion function and its SQL on one line make one hint that names both rules", async () => {
    const { riskHintsFor, riskMap } = await import("../src/query/knowledge/risk-map.js");
    const { hints } = await riskHintsFor(ctx, ["app/store.py"]);
    const deletion = hints.filter((h) => h.category === "data_deletion");
    assert.equal(deletion.length, 1, JSON.stringify(deletion));
    assert.equal(deletion[0]!.rule, "sql-drop");
    assert.match(deletion[0]!.reason, /also rule deletion-function/);
    const map = await riskMap(ctx);
    const cat = map.map.categories.find((c) => c.category === "data_deletion")!;
    assert.equal(cat.hints.filter((h) => h.path === "app/store.py" && h.startLine === 1).length, 1);
  });
});

describe("heuristics read code, not its comments and docstrings", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({
      "app/views.py":
        'def make_app():\n    """Build the app.\n\n    Example::\n\n        @app.route("/hello")\n        def hello(): ...\n    """\n    # db.execute("DROP TABLE users")  -- old cleanup\n    return 1\n\n@app.route("/real")\ndef real():\n    return "ok"\n',
      "web/server.js": '/*\n * app.get("/doc", handler) shows how to add a route\n */\n// app.get("/old", handler);\napp.get("/live", handler);\n',
    }));
  });
  after(async () => close());

  test("a route in a docstring or a comment is no entrypoint; the real ones are", async () => {
    const { findEntrypoints } = await import("../src/query/knowledge/entrypoints.js");
    const { knowledgeOf } = await import("../src/query/knowledge/load.js");
    const { items } = await findEntrypoints(ctx, await knowledgeOf(ctx));
    const routes = items.filter((e) => e.type === "http-route").map((e) => `${e.path}:${e.startLine}`).sort();
    assert.deepEqual(routes, ["app/views.py:12", "web/server.js:5"]);
    const { riskHintsFor } = await import("../src/query/knowledge/risk-map.js");
    const { hints } = await riskHintsFor(ctx, ["app/views.py"]);
    assert.ok(!hints.some((h) => h.category === "data_deletion"), JSON.stringify(hints));
  });
});

describe("risk hints for running programs, deserializing, SQL from strings and signing secrets", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({
      "tool/run.py":
        'import pickle, shutil, subprocess\n\ndef run(cmd, blob, db, name):\n    subprocess.run(cmd, shell=True)\n    data = pickle.loads(blob)\n    db.execute(f"SELECT * FROM users WHERE name = \'{name}\'")\n    shutil.rmtree("/tmp/x")\n    # subprocess.run(["old"])\n    return data\n',
      "web/sessions.py": "from itsdangerous import URLSafeTimedSerializer\n\ndef serializer(app):\n    return URLSafeTimedSerializer(app.secret_key)\n",
      "cli/src/pager.rs": 'use std::process::Command;\n\npub fn page() {\n    let _ = Command::new("less").spawn();\n}\n',
      "srv/exec.go": 'package srv\n\nimport "os/exec"\n\nfunc Run() error { return exec.Command("ls").Run() }\n',
    }));
  });
  after(async () => close());

  test("each is a hint of its category at the line that does it; a comment is none", async () => {
    const { riskHintsFor } = await import("../src/query/knowledge/risk-map.js");
    const { hints } = await riskHintsFor(ctx, ["tool/run.py", "web/sessions.py", "cli/src/pager.rs", "srv/exec.go"]);
    const at = (category: string) => hints.filter((h) => h.category === category).map((h) => `${h.path}:${h.startLine}:${h.rule}`).sort();
    assert.deepEqual(at("process_execution"), ["cli/src/pager.rs:4:rust-command", "srv/exec.go:5:go-exec-command", "tool/run.py:4:python-subprocess"]);
    assert.deepEqual(at("deserialization"), ["tool/run.py:5:python-pickle"]);
    assert.deepEqual(at("sql_from_strings"), ["tool/run.py:6:sql-string-built"]);
    assert.ok(at("data_deletion").includes("tool/run.py:7:python-file-delete"), at("data_deletion").join(", "));
    assert.deepEqual(at("crypto_secrets"), ["web/sessions.py:1:itsdangerous-signing", "web/sessions.py:4:session-secret"]);
  });
});

describe("risk hints name the product's risks, not look-alikes (labelled precision, bench/risk.ts)", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({
      "package.json": '{ "name": "lib", "version": "1.0.0", "main": "index.js" }\n',
      "index.js": "module.exports = {};\n",
      "test/module/package.json": '{ "name": "fixture", "version": "1.0.0", "main": "index.js" }\n',
      "examples/app/server.js": 'app.get("/demo", handler);\n',
      "git/client.go":
        'package git\n\nfunc (c *Client) CheckoutBranch(b string) error { return nil }\n\nfunc (c Comment) AuthorLogin() string { return "" }\n\nfunc Login(host, token string) error { return nil }\n\ntype LoginOptions struct{}\n\nfunc Truncate(s string) string { return s }\n\nfunc DeleteUser(id string) error { return nil }\n',
      "pkg/prompter/prompter_mock.go": 'package prompter\n\nimport "sync"\n\ntype PrompterMock struct {\n\tlockAuthToken sync.RWMutex\n}\n',
      "src/guard.rs":
        'pub struct Guard;\n\nimpl Drop for Guard {\n    fn drop(&mut self) {}\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn cleans() {\n        std::fs::remove_file("x").unwrap();\n    }\n}\n',
      "app/sessions.py": 'def fail():\n    raise RuntimeError(\n        "Set the secret_key on the application first"\n    )\n\n\ndef signer(app):\n    return app.secret_key\n',
      "src/main/java/a/Holder.java":
        "package a;\n\nimport java.io.ObjectInputStream;\n\nclass Holder {\n  Object read(byte[] b) throws Exception {\n    return new ObjectInputStream(new java.io.ByteArrayInputStream(b)).readObject();\n  }\n}\n",
    }));
  });
  after(async () => close());

  test("examples, test fixtures' manifests, test doubles, Rust test modules, Drop, string truncation, git checkout and usernames are no hints", async () => {
    const { riskHintsFor, riskMap } = await import("../src/query/knowledge/risk-map.js");
    const paths = ["examples/app/server.js", "git/client.go", "pkg/prompter/prompter_mock.go", "src/guard.rs", "app/sessions.py", "src/main/java/a/Holder.java"];
    const { hints } = await riskHintsFor(ctx, paths);
    const at = (category: string) => hints.filter((h) => h.category === category).map((h) => `${h.path}:${h.startLine}`).sort();
    assert.ok(!hints.some((h) => h.path.startsWith("examples/")), JSON.stringify(hints));
    assert.deepEqual(at("billing_pricing"), []);
    assert.deepEqual(at("auth_boundary"), ["git/client.go:7"]);
    assert.deepEqual(at("data_deletion"), ["git/client.go:13"]);
    assert.deepEqual(at("concurrency"), []);
    // The first line naming the secret is a message; the hint points at the code that reads it.
    assert.deepEqual(at("crypto_secrets"), ["app/sessions.py:8"]);
    // The stream is used at line 7; the import names it only.
    assert.deepEqual(at("deserialization"), ["src/main/java/a/Holder.java:7"]);
    const map = await riskMap(ctx);
    const mains = map.map.categories.find((c) => c.category === "public_api")!.hints.filter((h) => h.rule.startsWith("entrypoint-")).map((h) => `${h.path}:${h.rule}`);
    assert.deepEqual(mains, ["package.json:entrypoint-package-main"]);
  });
});

describe("Java type uses the compiler sees and a name-by-name query missed", () => {
  test("class literals, classes inside imports, outer types, wildcard bounds and varargs", async () => {
    const ex = await SymbolExtractor.create();
    const text = [
      "package com.acme;",
      "",
      "import static org.mockito.Mockito.times;",
      "import static org.mockito.ArgumentMatchers.*;",
      "import a.b.Outer.Inner;",
      "",
      "class B {",
      "    Outer.Inner x = new Outer.Inner();",
      "    A.B.C deep;",
      "    void f(List<? extends Described> xs, Answer... more) { load(AClass.class); }",
      "}",
      "",
    ].join("\n");
    const refs = (await ex.extract("java", "src/B.java", text)).references.map((r) => `${r.line}:${r.name}:${r.kind}`);
    for (const want of ["3:Mockito:import", "4:ArgumentMatchers:import", "5:Outer:import", "8:Outer:type", "9:A:type", "9:B:type", "10:Described:type", "10:Answer:type", "10:AClass:type"]) {
      assert.ok(refs.includes(want), `${want} in ${refs.join(" ")}`);
    }
    assert.ok(!refs.some((r) => /:(org|mockito|a|b):/.test(r)), "package segments are no references");
  });

  test("a type use never names a constant of that name (an enum constant String is not java.lang.String)", async () => {
    const { referenceFits } = await import("../src/query/symbols.js");
    assert.equal(referenceFits("type", "constant"), false);
    assert.equal(referenceFits("type", "class"), true);
    assert.equal(referenceFits("call", "class"), true, "new Foo() is a call of the class");
    assert.equal(referenceFits("value", "constant"), true);
  });
});

describe("shared names resolved by package and import in Go, Java and Rust", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({
      "go.mod": "module example.com/app\n\ngo 1.21\n",
      "internal/cache/cache.go": "package cache\n\nfunc New() *Cache { return nil }\n\ntype Cache struct{}\n\nfunc warm() { _ = New() }\n",
      "internal/store/store.go": "package store\n\nfunc New() int { return 1 }\n",
      "internal/store/use.go": "package store\n\nvar made = New()\n",
      "cmd/app/main.go": 'package main\n\nimport (\n\t"example.com/app/internal/cache"\n\tkv "example.com/app/internal/store"\n)\n\nfunc main() {\n\t_ = cache.New()\n\t_ = kv.New()\n}\n',
      "src/main/java/com/acme/a/Config.java": "package com.acme.a;\n\npublic class Config {}\n",
      "src/main/java/com/acme/b/Config.java": "package com.acme.b;\n\npublic class Config {}\n",
      "src/main/java/com/acme/b/UseB.java": "package com.acme.b;\n\nclass UseB { Config c; }\n",
      "src/main/java/com/acme/app/App.java": "package com.acme.app;\n\nimport com.acme.a.Config;\n\nclass App { Config c; }\n",
      "src/main/java/com/acme/app/Wild.java": "package com.acme.app;\n\nimport com.acme.b.*;\n\nclass Wild { Config c; }\n",
      "Cargo.toml": '[package]\nname = "tool"\nversion = "0.1.0"\n',
      "src/lib.rs": "pub mod filter;\npub mod size;\n",
      "src/filter.rs": "pub fn parse(s: &str) -> usize { s.len() }\n",
      "src/size.rs": "pub fn parse(s: &str) -> u64 { 0 }\n",
      "src/main.rs": "use crate::filter::parse;\nuse crate::size::{parse as parse_size};\n\nfn main() { let f = parse; parse(\"a\"); }\n",
    }));
  });
  after(async () => close());

  const lines = async (symbol: string, paths?: string[]) => {
    const r = await findSymbol(ctx, { symbol, intent: "references", maxResults: 50, ...(paths ? { paths } : {}) });
    return { r, hits: r.items.filter((h) => h.matchType === "syntactic_reference").map((h) => `${h.path}:${h.startLine}:${h.confidence}`) };
  };

  test("Go: the package's own New, and each import's by its name or alias", async () => {
    const { r, hits } = await lines("cache.New");
    assert.deepEqual(hits.sort(), ["cmd/app/main.go:9:high", "internal/cache/cache.go:7:high"]);
    assert.ok(r.warnings.some((w) => w.code === "references_kept_apart"));
    const store = await lines("store.New");
    assert.deepEqual(store.hits.sort(), ["cmd/app/main.go:10:high", "internal/store/use.go:3:high"]);
    const reason = store.r.items.find((h) => h.path === "internal/store/use.go")!.reason;
    assert.match(reason, /in this package, internal\/store\/store\.go/);
  });

  test("Java: a single-type import first, then the file's own package, then a wildcard import", async () => {
    const a = await lines("com.acme.a.Config");
    assert.deepEqual(a.hits.filter((h) => h.startsWith("src/main/java/com/acme/app/") || h.includes("/b/")).sort(), ["src/main/java/com/acme/app/App.java:3:high", "src/main/java/com/acme/app/App.java:5:high"]);
    const b = await lines("com.acme.b.Config");
    assert.deepEqual(b.hits.filter((h) => !h.includes("/a/")).sort(), ["src/main/java/com/acme/app/Wild.java:5:high", "src/main/java/com/acme/b/UseB.java:3:high"]);
  });

  test("Rust: a use path names the module, an alias too", async () => {
    const f = await lines("parse");
    assert.ok(f.r.warnings.some((w) => w.code === "ambiguous_symbol"));
    const all = f.r.items.filter((h) => h.matchType === "syntactic_reference" && h.path === "src/main.rs").map((h) => `${h.startLine}:${h.confidence}:${/filter\.rs|size\.rs/.exec(h.reason)?.[0] ?? "?"}`);
    assert.deepEqual(all.sort(), ["1:high:filter.rs", "2:high:size.rs", "4:high:filter.rs", "4:high:filter.rs"]);
  });
});
