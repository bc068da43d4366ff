import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { findRelatedTests, type RelatedTest } from "../src/query/knowledge/related-tests.js";
import type { QueryContext } from "../src/query/context.js";
import { indexed } from "./helpers/indexed.js";

/** Tests in other packages and modules that import the changed code: one step of the import graph, per language. */
describe("related tests through the import graph", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;
  const related = async (changedPaths: string[]) => findRelatedTests(ctx, { changedPaths, maxResults: 30 });
  const find = (items: RelatedTest[], path: string): RelatedTest => {
    const t = items.find((x) => x.path === path);
    assert.ok(t, `${path} not among ${items.map((x) => x.path).join(", ")}`);
    return t;
  };

  before(async () => {
    ({ ctx, close } = await indexed({
      "package.json": JSON.stringify({ name: "acme", private: true, workspaces: ["packages/*"] }),
      "packages/core/package.json": JSON.stringify({ name: "@acme/core", scripts: { test: "mocha" } }),
      "packages/core/src/slug.js": "exports.slugify = function slugify(s) { return s.toLowerCase(); };\n",
      "packages/core/src/other.js": "exports.other = function other() { return 1; };\n",
      "packages/core/test/slug.test.js": "const { slugify } = require('../src/slug');\ndescribe('slug', () => { it('lowers', () => slugify('A')); });\n",
      "packages/web/package.json": JSON.stringify({ name: "@acme/web", scripts: { test: "mocha" } }),
      "packages/web/test/page.test.js": "const { slugify } = require('@acme/core/src/slug');\ndescribe('page', () => { it('titles', () => slugify('T')); });\n",
      "packages/web/test/shell.test.js": "const core = require('@acme/core');\ndescribe('shell', () => { it('starts', () => core); });\n",
      "packages/web/test/unrelated.test.js": "const { other } = require('@acme/core/src/other');\ndescribe('unrelated', () => { it('runs', () => other()); });\n",
      "java/pom.xml": "<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId><artifactId>java</artifactId><version>1</version></project>\n",
      "java/util/src/main/java/com/acme/util/Strings.java": "package com.acme.util;\n\npublic class Strings {\n  public static String trimAll(String s) { return s.trim(); }\n}\n",
      "java/app/src/test/java/com/acme/app/CheckoutTest.java":
        "package com.acme.app;\n\nimport com.acme.util.Strings;\nimport org.junit.jupiter.api.Test;\n\nclass CheckoutTest {\n  @Test void pays() { Strings.trimAll(\" x \"); }\n}\n",
      "java/app/src/test/java/com/acme/app/WildTest.java":
        "package com.acme.app;\n\nimport com.acme.util.*;\nimport org.junit.jupiter.api.Test;\n\nclass WildTest {\n  @Test void runs() { }\n}\n",
      "go/go.mod": "module example.com/shop\n\ngo 1.21\n",
      "go/core/limit/limit.go": "package limit\n\nfunc Allow(n int) bool { return n < 3 }\n",
      "go/api/handler/handler_test.go": 'package handler\n\nimport (\n\t"testing"\n\n\t"example.com/shop/core/limit"\n)\n\nfunc TestServe(t *testing.T) { limit.Allow(1) }\n',
      "py/shop/util/text.py": "def shout(s):\n    return s.upper()\n",
      "py/tests/integration/test_flow.py": "from shop.util.text import shout\n\ndef test_flow():\n    assert shout('a') == 'A'\n",
      "py/tests/integration/test_pkg.py": "import shop.util\n\ndef test_pkg():\n    assert shop.util\n",
      "rs/Cargo.toml": '[package]\nname = "my-pager"\nversion = "0.1.0"\n',
      "rs/src/lib.rs": "pub mod theme;\npub struct Printer;\n",
      "rs/src/theme.rs": "pub struct Theme;\n",
      "rs/tests/themes.rs": "use my_pager::theme::Theme;\n\n#[test]\nfn loads() { let _ = Theme; }\n",
      "rs/src/bin/pagectl/main.rs": "fn main() { println!(\"ctl\"); }\n",
      "rs/tests/cli.rs": "#[test]\nfn runs_the_binary() { assert!(true); }\n",
      "rs/tests/printing.rs": "use my_pager::Printer;\n\n#[test]\nfn prints() { let _ = Printer; }\n",
    }));
  });
  after(async () => close());

  test("a test in another package importing the changed file ranks below the test named after it, above one importing only the package", async () => {
    const r = await related(["packages/core/src/slug.js"]);
    const order = r.items.map((t) => t.path);
    assert.equal(order[0], "packages/core/test/slug.test.js", order.join(", "));
    const page = find(r.items, "packages/web/test/page.test.js");
    assert.ok(page.reasons.includes("imports-changed-file"), page.reasons.join(", "));
    assert.ok(page.details.includes("imports packages/core/src/slug.js"));
    const shell = find(r.items, "packages/web/test/shell.test.js");
    assert.ok(shell.reasons.includes("imports-changed-package"), shell.reasons.join(", "));
    assert.ok(r.items[0]!.score > page.score && page.score > shell.score, `${r.items[0]!.score} > ${page.score} > ${shell.score}`);
    assert.ok(!order.includes("packages/web/test/unrelated.test.js"), "a test importing another file of the package is not related by it");
  });

  test("Java: a test class in another module importing the changed class; a wildcard import of its package ranks below", async () => {
    const r = await related(["java/util/src/main/java/com/acme/util/Strings.java"]);
    const checkout = find(r.items, "java/app/src/test/java/com/acme/app/CheckoutTest.java");
    assert.ok(checkout.reasons.includes("imports-changed-file"), checkout.reasons.join(", "));
    const wild = find(r.items, "java/app/src/test/java/com/acme/app/WildTest.java");
    assert.deepEqual(wild.reasons, ["imports-changed-package"]);
    assert.ok(checkout.score > wild.score);
  });

  test("Go: a test in another package importing the changed file's package by its module path", async () => {
    const r = await related(["go/core/limit/limit.go"]);
    const t = find(r.items, "go/api/handler/handler_test.go");
    assert.ok(t.reasons.includes("imports-changed-package"), t.reasons.join(", "));
  });

  test("Python: a test importing the changed module by its dotted name, and one importing only its package", async () => {
    const r = await related(["py/shop/util/text.py"]);
    assert.ok(find(r.items, "py/tests/integration/test_flow.py").reasons.includes("imports-changed-file"));
    assert.deepEqual(find(r.items, "py/tests/integration/test_pkg.py").reasons, ["imports-changed-package"]);
  });

  test("Rust: an integration test using the changed module of the crate, and one using only the crate", async () => {
    const r = await related(["rs/src/theme.rs"]);
    const themes = find(r.items, "rs/tests/themes.rs");
    assert.ok(themes.reasons.includes("imports-changed-file"), themes.reasons.join(", "));
    const printing = find(r.items, "rs/tests/printing.rs");
    assert.ok(printing.reasons.includes("imports-changed-package"), printing.reasons.join(", "));
    assert.ok(themes.score > printing.score);
  });

  test("Rust: a binary is not in the library its tests use; importing only a package still lets the module's tests in", async () => {
    const r = await related(["rs/src/bin/pagectl/main.rs"]);
    assert.ok(r.items.every((t) => !t.reasons.includes("imports-changed-package")), r.items.map((t) => `${t.path} ${t.reasons.join("+")}`).join(", "));
    assert.ok(find(r.items, "rs/tests/cli.rs").reasons.includes("same-module"));
  });
});
