import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { findRelatedTests, type RelatedTest, type SupportFile } from "../src/query/knowledge/related-tests.js";
import type { QueryContext } from "../src/query/context.js";
import { indexed } from "./helpers/indexed.js";

function useApp(name: string, extra = ""): string {
  return `const { createApp } = require('../lib/app');\n\ndescribe('${name}', () => {\n  it('works', () => {\n    const app = createApp();\n    ${extra}\n  });\n});\n`;
}

describe("related tests in a JavaScript package", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;
  const related = async (changedPaths: string[], symbols?: string[]) => findRelatedTests(ctx, { changedPaths, ...(symbols ? { symbols } : {}), maxResults: 20 });
  const paths = (tests: RelatedTest[]) => tests.map((t) => t.path);

  before(async () => {
    ({ ctx, close } = await indexed({
      "package.json": JSON.stringify({ name: "web", scripts: { test: "mocha" }, devDependencies: { mocha: "10.0.0" } }),
      "lib/app.js": "exports.createApp = function createApp() { return {}; };\nexports.parseRange = function parseRange(s) { return s.split('-'); };\n",
      "lib/request.js": "exports.hostname = function hostname(req) { return req.host; };\n",
      "lib/plugin/cors/index.js": "exports.corsHeaders = function corsHeaders() { return {}; };\n",
      "test/alpha.js": useApp("alpha"),
      "test/beta.js": useApp("beta"),
      "test/gamma.js": useApp("gamma"),
      "test/delta.js": useApp("delta"),
      "test/epsilon.js": useApp("epsilon"),
      "test/zeta.js": useApp("zeta", "parseRange('1-2');").replace("{ createApp }", "{ createApp, parseRange }"),
      "test/eta.js": useApp("eta").replace("{ createApp }", "{ createApp, parseRange }"),
      "test/req.hostname.js": "describe('req.hostname', () => {\n  it('reads the host', () => {});\n});\n",
      "test/plugin/cors.test.js": "describe('cors', () => {\n  it('sets headers', () => {});\n});\n",
      "test/support/utils.js": "const { createApp } = require('../../lib/app');\nexports.shouldHaveApp = () => createApp();\n",
      "test/fixtures/app.js": "module.exports = 'a fixture named like the app';\n",
      "lib/__snapshots__/format.test.js.snap": "exports[`format 1`] = `\"a\"`;\n",
      "lib/format.js": "exports.formatRange = function formatRange(r) { return r.join('-'); };\n",
      "lib/format.test.js": "const { formatRange } = require('./format');\ntest('format', () => { expect(formatRange(['a'])).toMatchSnapshot(); });\n",
    }));
  });
  after(async () => close());

  test("a module named by its folder (plugin/cors/index.js) is tested by the test named after the folder", async () => {
    const r = await related(["lib/plugin/cors/index.js"]);
    const cors = r.items.find((t) => t.path === "test/plugin/cors.test.js");
    assert.ok(cors, paths(r.items).join(", "));
    assert.ok(cors.reasons.includes("name-convention"));
    assert.equal(r.items[0]!.path, "test/plugin/cors.test.js");
  });

  test("a test named req.<member> is near request.js: a similar name, not an exact one", async () => {
    const r = await related(["lib/request.js"]);
    const t = r.items.find((x) => x.path === "test/req.hostname.js");
    assert.ok(t, paths(r.items).join(", "));
    assert.ok(t.reasons.includes("similar-name"));
    assert.ok(t.details.some((d) => /short for request/.test(d)));
  });

  test("a test calling a changed symbol few tests use ranks above tests using only the symbol every test uses, and above one that only imports it", async () => {
    const r = await related(["lib/app.js"]);
    const order = paths(r.items);
    assert.equal(order[0], "test/zeta.js", order.join(", "));
    const eta = r.items.find((t) => t.path === "test/eta.js")!;
    const alpha = r.items.find((t) => t.path === "test/alpha.js")!;
    assert.ok(r.items[0]!.score > eta.score, "calling parseRange weighs more than importing it without a call");
    assert.ok(r.items[0]!.score > alpha.score);
    assert.ok(r.items[0]!.details.some((d) => /references parseRange/.test(d)));
  });

  test("helpers and fixtures are never proposed as tests to run: they are listed apart with what related them", async () => {
    const r = await related(["lib/app.js"]);
    assert.ok(!paths(r.items).includes("test/support/utils.js"));
    assert.ok(!paths(r.items).includes("test/fixtures/app.js"));
    const support = r.stats.supportFiles as SupportFile[];
    assert.equal(support.find((s) => s.path === "test/support/utils.js")?.role, "helper");
    assert.equal(support.find((s) => s.path === "test/fixtures/app.js")?.role, "fixture");
    assert.ok(support.find((s) => s.path === "test/support/utils.js")!.details.some((d) => /createApp/.test(d)));
  });

  test("a snapshot comes with the test that writes it, never as a test of its own", async () => {
    const r = await related(["lib/format.js"]);
    const t = r.items.find((x) => x.path === "lib/format.test.js")!;
    assert.deepEqual(t.snapshots, ["lib/__snapshots__/format.test.js.snap"]);
    assert.ok(!paths(r.items).some((p) => p.endsWith(".snap")));
  });

  test("a test named after a symbol asked for (req.hostname.js for hostname) ranks first, named for it", async () => {
    const r = await related(["lib/request.js", "lib/app.js"], ["hostname"]);
    const t = r.items[0]!;
    assert.equal(t.path, "test/req.hostname.js", paths(r.items).join(", "));
    assert.ok(t.reasons.includes("named-after-symbol"), t.reasons.join(", "));
  });

  test("changedPaths are used as given; files a symbol adds are listed apart with why", async () => {
    const r = await related(["lib/request.js"], ["formatRange"]);
    assert.deepEqual(r.stats.changedPaths, ["lib/request.js"]);
    const added = r.stats.addedPaths as { path: string; reason: string }[];
    assert.deepEqual(added.map((a) => a.path), ["lib/format.js"]);
    assert.match(added[0]!.reason, /formatRange/);
  });
});

describe("related tests in Python, Rust and Go", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;
  const related = async (changedPaths: string[]) => findRelatedTests(ctx, { changedPaths, maxResults: 20 });

  before(async () => {
    ({ ctx, close } = await indexed({
      "py/pyproject.toml": '[project]\nname = "shop"\n\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
      "py/shop/app.py": 'def make_app(name):\n    """Build an app.\n\n    >>> make_app("x")["name"]\n    \'x\'\n    """\n    return {"name": name}\n',
      "py/tests/test_app.py": "from shop.app import make_app\n\ndef test_make():\n    assert make_app('a')\n",
      "py/tests/conftest.py": "import pytest\nfrom shop.app import make_app\n\n@pytest.fixture\ndef app():\n    return make_app('t')\n",
      "py/tests/test_apps/cliapp/app.py": "from shop.app import make_app\napp = make_app('cli')\n",
      "py/tests/test_misc.py": "from shop.app import make_app\n\nclass TestMisc:\n    def test_uses_app(self):\n        make_app('m')\n\n    def test_other(self):\n        assert 1\n",
      "rs/Cargo.toml": '[package]\nname = "pager"\nversion = "0.1.0"\n',
      "rs/src/main.rs": "mod printer;\nfn main() { printer::print_line(\"x\"); }\n",
      "rs/src/printer.rs":
        "/// Prints a line.\n///\n/// ```\n/// pager::printer::print_line(\"a\");\n/// ```\npub fn print_line(s: &str) { println!(\"{}\", s); }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn prints() { super::print_line(\"t\"); }\n}\n",
      "rs/tests/integration.rs": "#[test]\nfn runs() { assert!(true); }\n",
      "rs/tests/syntax/source/Go/main.go": "package main\n\nfunc main() {}\n",
      "rs/src/macros/select.rs": "pub fn select_first(v: &[u8]) -> u8 { v[0] }\n",
      "rs/tests/macros_select.rs": "#[test]\nfn picks() { assert!(true); }\n",
      "rs/src/sync/mpsc/mod.rs": "pub mod bounded;\n",
      "rs/src/sync/mpsc/bounded.rs": "pub fn channel_of(n: usize) -> usize { n }\n",
      "rs/tests/sync_mpsc.rs": "#[test]\nfn sends() { assert!(true); }\n",
      "c/src/main.c": "int main(void) { return 0; }\n",
      "c/tests/shtest": "#!/bin/sh\n./jq -n 1 >/dev/null\n",
      "c/tests/setup": "#!/bin/sh\nJQ=./jq\n",
      "go/go.mod": "module example.com/limits\n\ngo 1.21\n",
      "go/limiter.go": "package limits\n\nfunc Allow(n int) bool { return n < 3 }\n",
      "go/limiter_test.go": "package limits\n\nimport \"testing\"\n\nfunc TestAllow(t *testing.T) { Allow(1) }\n",
      "go/testdata/limiter_test.golden": "true\n",
    }));
  });
  after(async () => close());

  test("conftest.py and a fixture app named like the changed file are support, not tests; doctests come first", async () => {
    const r = await related(["py/shop/app.py"]);
    const order = r.items.map((t) => t.path);
    assert.ok(order.includes("py/tests/test_app.py"), order.join(", "));
    assert.ok(!order.includes("py/tests/conftest.py"));
    assert.ok(!order.includes("py/tests/test_apps/cliapp/app.py"));
    const support = r.stats.supportFiles as SupportFile[];
    assert.equal(support.find((s) => s.path === "py/tests/conftest.py")?.role, "helper");
    assert.equal(support.find((s) => s.path === "py/tests/test_apps/cliapp/app.py")?.role, "fixture");
    const doc = r.items.find((t) => t.path === "py/shop/app.py")!;
    assert.ok(doc.reasons.includes("doc-tests"));
    assert.equal(doc.testCommandHint, "cd py && pytest --doctest-modules shop/app.py");
  });

  test("a test using the changed code in one of its tests runs just that test: pytest path::Class::test_name", async () => {
    const r = await related(["py/shop/app.py"]);
    const misc = r.items.find((t) => t.path === "py/tests/test_misc.py")!;
    assert.equal(misc.testCommandHint, "cd py && pytest tests/test_misc.py::TestMisc::test_uses_app");
  });

  test("Rust inline #[cfg(test)] tests and doc tests of the changed file, selected by module path", async () => {
    const r = await related(["rs/src/printer.rs"]);
    const own = r.items[0]!;
    assert.equal(own.path, "rs/src/printer.rs");
    assert.ok(own.reasons.includes("inline-tests") && own.reasons.includes("doc-tests"), own.reasons.join(", "));
    assert.match(own.testCommandHint!, /^cd rs && cargo test -p pager printer::$/);
  });

  test("a file in another language under the crate's tests is a fixture, not a test of the Rust binary", async () => {
    const r = await related(["rs/src/main.rs"]);
    const order = r.items.map((t) => t.path);
    assert.ok(!order.includes("rs/tests/syntax/source/Go/main.go"), order.join(", "));
    assert.ok(order.includes("rs/tests/integration.rs"), order.join(", "));
  });

  test("a flat test folder names a test after the folder module holding the file: tests/sync_mpsc.rs for src/sync/mpsc/{mod,bounded}.rs", async () => {
    for (const changed of ["rs/src/sync/mpsc/mod.rs", "rs/src/sync/mpsc/bounded.rs"]) {
      const r = await related([changed]);
      const t = r.items.find((x) => x.path === "rs/tests/sync_mpsc.rs");
      assert.ok(t?.reasons.includes("name-convention"), `${changed}: ${r.items.map((x) => x.path).join(", ")}`);
      assert.ok(t.details.some((d) => /after sync\/mpsc/.test(d)), t.details.join("; "));
    }
  });

  test("a flat test folder names a test after the module's folder and name: tests/macros_select.rs for src/macros/select.rs", async () => {
    const r = await related(["rs/src/macros/select.rs"]);
    const t = r.items.find((x) => x.path === "rs/tests/macros_select.rs");
    assert.ok(t?.reasons.includes("name-convention"), JSON.stringify(r.items.map((x) => [x.path, x.reasons])));
    assert.ok(t!.details.some((d) => /after macros\/select/.test(d)), t!.details.join("; "));
  });

  test("a shell script in a test folder named as a test is a test to run; another script there is support", async () => {
    const r = await related(["c/src/main.c"]);
    const support = (r.stats.supportFiles as { path: string }[] | undefined) ?? [];
    assert.ok(r.items.some((t) => t.path === "c/tests/shtest"), JSON.stringify(r.items.map((x) => x.path)));
    assert.ok(!r.items.some((t) => t.path === "c/tests/setup"), JSON.stringify(r.items.map((x) => x.path)));
    assert.ok(support.length === 0 || !support.some((s) => s.path === "c/tests/shtest"));
  });

  test("a Go golden file comes with its test", async () => {
    const r = await related(["go/limiter.go"]);
    const t = r.items.find((x) => x.path === "go/limiter_test.go")!;
    assert.deepEqual(t.snapshots, ["go/testdata/limiter_test.golden"]);
  });
});

describe("related tests by a changed member's name", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;
  const adapters = Object.fromEntries(
    Array.from({ length: 10 }, (_, i) => [`lib/adapters/a${i}.js`, `exports.writeValue = function writeValue(v) { return ${i}; };\n${i === 0 ? "exports.writeRare = function writeRare(v) { return v; };\nexports.writeQuiet = function writeQuiet(v) { return v; };\n" : ""}`]),
  );

  before(async () => {
    ({ ctx, close } = await indexed({
      "package.json": JSON.stringify({ name: "lib", scripts: { test: "mocha" } }),
      ...adapters,
      "spec/generic.test.js": "describe('generic', () => { it('writes', () => { writeValue(1); }); });\n",
      "spec/rare.test.js": "describe('rare', () => { it('writes', () => { writeRare(1); }); });\n",
      "spec/quiet.test.js": "describe('quiet', () => { it('writes', () => { writeQuiet(1); }); });\n",
    }));
  });
  after(async () => close());

  test("a name many files define (writeValue of every adapter) relates no test; names only the changed file defines do", async () => {
    const r = await findRelatedTests(ctx, { changedPaths: ["lib/adapters/a0.js"], maxResults: 20 });
    const byRef = r.items.filter((t) => t.reasons.includes("references-changed-symbol")).map((t) => t.path);
    assert.deepEqual(byRef, ["spec/quiet.test.js", "spec/rare.test.js"]);
  });

  test("a symbol asked for puts the tests using it before those using the rest of the changed file", async () => {
    const plain = await findRelatedTests(ctx, { changedPaths: ["lib/adapters/a0.js"], maxResults: 20 });
    assert.equal(plain.items[0]!.path, "spec/quiet.test.js");
    const asked = await findRelatedTests(ctx, { changedPaths: ["lib/adapters/a0.js"], symbols: ["writeRare"], maxResults: 20 });
    assert.equal(asked.items[0]!.path, "spec/rare.test.js", asked.items.map((t) => t.path).join(", "));
  });

  test("a shared name asked for resolves to the changed file's definition; alone it is ambiguous and adds no file", async () => {
    const withPath = await findRelatedTests(ctx, { changedPaths: ["lib/adapters/a0.js"], symbols: ["writeValue"], maxResults: 20 });
    assert.deepEqual(withPath.stats.addedPaths, []);
    assert.ok(!withPath.warnings.some((w) => w.code === "symbol_ambiguous"));
    const alone = await findRelatedTests(ctx, { symbols: ["writeValue"], maxResults: 20 });
    assert.deepEqual(alone.stats.addedPaths, []);
    assert.ok(alone.warnings.some((w) => w.code === "symbol_ambiguous" && /10 files define writeValue/.test(w.message)), JSON.stringify(alone.warnings));
  });
});

describe("related tests by what the changed code says", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;
  const common = "describe('x', () => { it('fails', () => { expect(run()).toThrow('invalid input given'); }); });\n";

  before(async () => {
    ({ ctx, close } = await indexed({
      "src/jv.c":
        '#include "jv.h"\n\nint jv_index(int t) {\n  if (t < 0) return error("Cannot index %s with %s", kind(t), "number");\n  return t;\n}\n\nint jv_parse(const char *s) {\n  if (!s) return error("Unfinished JSON term at EOF");\n  return 0;\n}\n',
      "src/util.c": 'int fail(void) { return error("invalid input given"); }\n',
      "tests/jq.test": "# jq programs, inputs and expected outputs\n.[0]\n{}\njq: error: Cannot index object with number\n",
      "tests/jqtest": '#!/bin/sh\n. "${0%/*}/setup"\n$JQ --run-tests "$JQTESTDIR/jq.test"\n',
      "tests/mantest": '#!/bin/sh\n$JQ --run-tests "$JQTESTDIR/man.test"\n',
      "tests/man.test": "# examples from the manual\n.a\n{\"a\":1}\n1\n",
      "tests/setup": "#!/bin/sh\nJQ=./jq\n",
      "js/package.json": JSON.stringify({ name: "js", scripts: { test: "jest" } }),
      "js/lib/util.js": "exports.run = function run() { throw new Error('invalid input given'); };\n",
      ...Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`js/test/t${i}.test.js`, common])),
    }));
  });
  after(async () => close());

  test("test data holding a message the changed code raises is proposed as the suite's case, above scripts related only by folder", async () => {
    const r = await findRelatedTests(ctx, { changedPaths: ["src/jv.c"], maxResults: 20 });
    const t = r.items[0]!;
    assert.equal(t.path, "tests/jq.test", r.items.map((x) => x.path).join(", "));
    assert.ok(t.reasons.includes("holds-changed-literal"));
    assert.ok(t.details.some((d) => /holds "Cannot index" from src\/jv.c/.test(d)), t.details.join("; "));
    assert.ok(!r.items.some((x) => x.path === "tests/man.test"));
  });

  test("a literal many tests hold relates none of them", async () => {
    const r = await findRelatedTests(ctx, { changedPaths: ["js/lib/util.js"], maxResults: 20 });
    assert.ok(!r.items.some((x) => x.reasons.includes("holds-changed-literal")), JSON.stringify(r.items.map((x) => [x.path, x.reasons])));
  });
});
