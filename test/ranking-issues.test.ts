import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { parseQuery, withoutNoise } from "../src/query/hybrid/parse.js";
import { rankedSearch, type RankedHit } from "../src/query/hybrid/search.js";
import { searchCode } from "../src/query/search.js";
import { HYBRID_WEIGHTS } from "../src/query/ranking.js";
import type { QueryContext } from "../src/query/context.js";
import { indexed } from "./helpers/indexed.js";

/**
 * What ranking does with real issue text (issue #17): error messages found as written, frames from the reporter's
 * machine, Python's outermost-first tracebacks, declaration files and non-code text below the code, term counts,
 * definitions in docs, and an answer that does not depend on how many results were asked for.
 */
const FILES: Record<string, string> = {
  "src/flask/app.py": [
    "class Flask:",
    "    def make_response(self, rv):",
    "        if isinstance(rv, tuple):",
    "            raise TypeError('The view function did not return a valid response tuple.')",
    "        return rv",
    "",
    "    def dispatch_request(self):",
    "        return self.make_response(self.view())",
    "",
  ].join("\n"),
  "src/flask/cli.py": "def run_command(info):\n    app = info.load_app()\n    app.run()\n",
  "docs/errors.rst": "Errors\n======\n\nThe view function did not return a valid response tuple is raised when a view returns a bad tuple.\n",
  "docs/conf.py": "def make_response(rv):\n    return rv\n",
  "lib/duration.js": [
    "// Parses a duration such as 1h30m into milliseconds.",
    "export function parseDuration(text) {",
    "  const units = { h: 3600000, m: 60000, s: 1000 };",
    "  let total = 0;",
    "  for (const [, n, u] of text.matchAll(/(\\d+)([hms])/g)) total += Number(n) * units[u];",
    "  return total;",
    "}",
    "",
  ].join("\n"),
  "index.d.ts": "/** Parses a duration such as 1h30m into milliseconds. */\nexport declare function parseDuration(text: string): number;\n",
  "locale/fr.po": 'msgid "duration milliseconds parses hours minutes"\nmsgstr "durée millisecondes"\n',
  "src/grid/concat.py": [
    "def concat(objs, dim):",
    "    \"\"\"concat objects along dim; concat keeps attrs of the first.\"\"\"",
    "    first = objs[0]",
    "    return _concat_along(objs, dim, first.attrs)",
    "",
    "def _concat_along(objs, dim, attrs):",
    "    # concat each variable, then concat the coordinates",
    "    return [attrs, dim, objs]",
    "",
  ].join("\n"),
  "src/grid/merge.py": "def merge(objs):\n    # unlike concat, merge aligns first\n    return align(objs)\n\ndef align(objs):\n    return objs\n",
};

describe("ranking issue text", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;
  const rank = async (query: string, maxResults = 10) => (await rankedSearch(ctx, { query, strategy: "hybrid", maxResults })).items;
  const show = (items: RankedHit[]) => items.map((i) => `${i.path} ${i.score} ${i.reasons.map((r) => `${r.part}:${r.value}`).join(" ")}`).join("\n");

  before(async () => {
    ({ ctx, close } = await indexed(FILES, "repoctx-issues-"));
  });
  after(async () => close());

  test("environment listings, template checklists and HTML comments are left out of the query; code stays", () => {
    const text = ["concat drops attrs", "<!-- Please describe the bug -->", "- [x] I searched the issues", "numpy: 1.19.2", "pandas==1.1.3", "python-bits: 64", "OS: Linux", "Python 3.8.5", "assert x == 1.5", "ds.concat(other)"].join("\n");
    const kept = withoutNoise(text);
    for (const gone of ["Please describe", "searched", "numpy", "pandas", "python-bits", "Linux", "Python 3.8.5"]) assert.ok(!kept.includes(gone), `${gone} in ${kept}`);
    for (const stays of ["concat drops attrs", "assert x == 1.5", "ds.concat(other)"]) assert.ok(kept.includes(stays), `${stays} missing from ${kept}`);
    const terms = parseQuery(text).terms;
    for (const gone of ["numpy", "pandas", "searched", "linux"]) assert.ok(!terms.includes(gone), `${gone} in the query terms ${terms.join(" ")}`);
    assert.ok(terms.includes("concat") && terms.includes("attrs"), terms.join(" "));
  });

  test("an error message pasted as written finds the code that raises it, not the docs that quote it", async () => {
    const items = await rank("The view function did not return a valid response tuple");
    assert.equal(items[0]?.path, "src/flask/app.py", show(items));
    assert.equal(items[0]!.matchType, "verbatim");
    assert.ok(items[0]!.reasons.some((r) => r.part === "verbatim" && r.value === HYBRID_WEIGHTS.verbatim), show(items));
    const docs = items.find((i) => i.path === "docs/errors.rst");
    assert.ok(!docs || !docs.reasons.some((r) => r.part === "verbatim"), show(items));
  });

  test("a frame from the reporter's install maps to the repository's file by its tail; a relative path must match whole", async () => {
    const trace = 'Traceback (most recent call last):\n  File "/usr/lib/python3/site-packages/flask/app.py", line 8, in dispatch_request\nTypeError: bad tuple';
    const items = await rank(trace);
    assert.equal(items[0]?.path, "src/flask/app.py", show(items));
    assert.ok(items[0]!.reasons.some((r) => r.part === "stack_frame"), show(items));
    const relative = await rank("the file other/app.py is where it goes wrong for us when we run it");
    assert.ok(!relative.some((i) => i.reasons.some((r) => r.part === "path_mention")), show(relative));
  });

  test("a Python traceback's last frame is the innermost: it gets the strongest frame evidence", async () => {
    const trace = [
      "Traceback (most recent call last):",
      '  File "/home/me/proj/src/flask/cli.py", line 2, in run_command',
      "    app.run()",
      '  File "/home/me/proj/src/flask/app.py", line 4, in make_response',
      "    raise TypeError",
    ].join("\n");
    const items = await rank(trace);
    const frame = (p: string) => items.find((i) => i.path === p)?.reasons.find((r) => r.part === "stack_frame")?.value ?? 0;
    assert.equal(frame("src/flask/app.py"), HYBRID_WEIGHTS.stackFrame, show(items));
    assert.ok(frame("src/flask/cli.py") < frame("src/flask/app.py"), show(items));
  });

  test("IPython tracebacks, new and old, are read innermost-last too", async () => {
    const ipython8 = [
      "TypeError                                 Traceback (most recent call last)",
      "File ~/proj/src/flask/cli.py:2, in run_command(info)",
      "----> 2 app.run()",
      "File ~/proj/src/flask/app.py:4, in Flask.make_response(self, rv)",
      "----> 4 raise TypeError",
    ].join("\n");
    const older = [
      "TypeError                                 Traceback (most recent call last)",
      "~/proj/src/flask/cli.py in run_command(info)",
      "----> 2     app.run()",
      "",
      "~/proj/src/flask/app.py in make_response(self, rv)",
      "----> 4             raise TypeError",
    ].join("\n");
    for (const trace of [ipython8, older]) {
      const items = await rank(trace);
      const frame = (p: string) => items.find((i) => i.path === p)?.reasons.find((r) => r.part === "stack_frame")?.value ?? 0;
      assert.equal(frame("src/flask/app.py"), HYBRID_WEIGHTS.stackFrame, show(items));
      assert.ok(frame("src/flask/cli.py") > 0 && frame("src/flask/cli.py") < frame("src/flask/app.py"), show(items));
    }
  });

  test("the implementation outranks its declaration file, and text no parser reads as code sits below both", async () => {
    const items = await rank("parseDuration returns the wrong milliseconds when the duration parses hours and minutes");
    const at = (p: string) => items.findIndex((i) => i.path === p);
    assert.equal(items[0]?.path, "lib/duration.js", show(items));
    assert.ok(at("index.d.ts") > 0, show(items));
    const decl = items[at("index.d.ts")]!;
    assert.ok(decl.reasons.some((r) => r.part === "prior" && r.value === HYBRID_WEIGHTS.declarationPrior), show(items));
    const po = items.find((i) => i.path === "locale/fr.po");
    if (po) assert.ok(po.reasons.some((r) => r.part === "prior" && r.value === HYBRID_WEIGHTS.nonCodePrior), show(items));
  });

  test("a file built around the issue's subject outranks one that mentions it once (term counts)", async () => {
    const items = await rank("concat along a dim loses the attrs of the objects it joins");
    assert.equal(items[0]?.path, "src/grid/concat.py", show(items));
    const tf = (p: string) => items.find((i) => i.path === p)?.reasons.find((r) => r.part === "term_frequency")?.value ?? 0;
    assert.ok(tf("src/grid/concat.py") > tf("src/grid/merge.py"), show(items));
  });

  test("a name the docs define for illustration yields to the code's definition", async () => {
    const items = await rank("make_response fails when the view returns a tuple of three values");
    const def = (p: string) => items.find((i) => i.path === p)?.reasons.some((r) => r.part === "definition_exact") ?? false;
    assert.equal(def("src/flask/app.py"), true, show(items));
    assert.equal(def("docs/conf.py"), false, show(items));
  });

  test("the order does not depend on how many results were asked for", async () => {
    const query = "concat along a dim loses the attrs; make_response and parseDuration are fine";
    const few = (await rank(query, 3)).map((i) => `${i.path}:${i.score}`);
    const many = (await rank(query, 10)).map((i) => `${i.path}:${i.score}`);
    assert.deepEqual(few, many.slice(0, 3));
  });

  test("a two-word query found nowhere as written is ranked instead of coming back empty", async () => {
    const r = await searchCode(ctx, { query: "milliseconds duration", mode: "hybrid" });
    assert.ok(r.items.length > 0);
    assert.ok(r.items.some((g) => g.path === "lib/duration.js"), JSON.stringify(r.items.map((g) => g.path)));
  });
});
