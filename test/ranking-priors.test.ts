import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { rankedSearch } from "../src/query/hybrid/search.js";
import { HYBRID_WEIGHTS } from "../src/query/ranking.js";
import type { QueryContext } from "../src/query/context.js";
import { indexed } from "./helpers/indexed.js";

/**
 * Priors that keep an issue's own boilerplate from winning: issue and pull-request templates and contribution
 * policies share an issue's words by design ("bug report", "steps to reproduce", "expected behavior", "version").
 */
const FILES: Record<string, string> = {
  ".github/ISSUE_TEMPLATE/bug_report.md":
    "---\nname: Bug report\n---\n## Bug report\n\nSteps to reproduce the behavior.\n\nExpected behavior.\n\nActual behavior.\n\nVersion, environment, operating system.\n",
  "CONTRIBUTING.md": "# Contributing\n\nBefore you file a bug report, write the steps to reproduce, the expected behavior and the version.\n",
  "src/export.py":
    "def export_report(rows, path):\n    \"\"\"Export the report rows as CSV.\"\"\"\n    if not rows:\n        raise ValueError('no rows to export')\n    with open(path, 'w') as f:\n        for row in rows:\n            f.write(','.join(row))\n",
  "src/util.py": "def join_words(words):\n    return ' '.join(words)\n",
};

const ISSUE = [
  "Bug report: exporting an empty report crashes",
  "",
  "Steps to reproduce: call export_report with no rows.",
  "Expected behavior: an empty CSV file. Actual behavior: ValueError no rows to export.",
  "Version 2.1, environment Linux, operating system Debian.",
].join("\n");

describe("ranking priors", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed(FILES, "repoctx-priors-"));
  });
  after(async () => close());

  test("an issue text finds the code, not the issue template or the contribution guide that share its words", async () => {
    const r = await rankedSearch(ctx, { query: ISSUE, strategy: "hybrid", maxResults: 5 });
    const paths = r.items.map((i) => i.path);
    assert.equal(paths[0], "src/export.py", paths.join(", "));
    for (const p of [".github/ISSUE_TEMPLATE/bug_report.md", "CONTRIBUTING.md"]) {
      const hit = r.items.find((i) => i.path === p);
      if (hit) assert.ok(hit.reasons.some((x) => x.part === "prior" && x.value === HYBRID_WEIGHTS.boilerplatePrior), `${p}: ${JSON.stringify(hit.reasons)}`);
    }
  });
});

describe("a test's evidence goes to the file it tests, along its own path", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;

  before(async () => {
    ({ ctx, close } = await indexed({
      "packages/resolver/cache.js": "// Each lockfile entry the resolver answers from, until it goes stale.\nexport function remember(key, value) {\n  store.set(key, value);\n}\n",
      "packages/legacy/cache.js": "// lockfile\nexport function remember(key, value) {\n  old.put(key, value);\n}\n",
      "packages/resolver/test/cache.test.js":
        "test('a stale lockfile entry is evicted before the resolver answers', () => {\n  expect(evictStaleLockfileEntry()).toBe(true);\n});\n",
      "packages/resolver/conftest.py": "# shared fixtures\n",
    }));
  });
  after(async () => close());

  test("a same-named file in another package gets no credit from this package's test", async () => {
    const r = await rankedSearch(ctx, { query: "stale lockfile entry is not evicted before the resolver answers", strategy: "hybrid", maxResults: 10 });
    const creditOf = (path: string) => r.items.find((i) => i.path === path)?.reasons.find((x) => x.part === "tested_by");
    assert.ok(creditOf("packages/resolver/cache.js"), r.items.map((i) => `${i.path} ${JSON.stringify(i.reasons)}`).join("\n"));
    assert.equal(creditOf("packages/legacy/cache.js"), undefined);
  });
});

describe("copies of one document", () => {
  let ctx: QueryContext;
  let close: () => Promise<void>;
  const manual = (v: string) => `# jq manual ${v}\n\nThe ltrimstr filter removes a prefix. ltrimstr on a non-string input returns the input unchanged.\n`;

  before(async () => {
    ({ ctx, close } = await indexed({
      "docs/manual/manual.md": manual("dev"),
      "docs/manual/v1.5/manual.md": manual("1.5"),
      "docs/manual/v1.6/manual.md": manual("1.6"),
      "README.md": "# jq\n\nltrimstr and friends: see the manual for ltrimstr.\n",
      "doc/README-ja.md": "# jq\n\nltrimstr and friends: see the manual for ltrimstr.\n",
      "src/builtin.c": "static jv f_ltrimstr(jv input, jv left) {\n  if (jv_get_kind(input) != JV_KIND_STRING) return input;\n  return jv_string_sized(jv_string_value(input), 0);\n}\n",
    }));
  });
  after(async () => close());

  test("another version or translation of a document ranked above loses most of its score; the first copy keeps its place", async () => {
    const r = await rankedSearch(ctx, { query: "ltrimstr on a non-string input should return the input unchanged", strategy: "hybrid", maxResults: 10 });
    const paths = r.items.map((i) => i.path);
    const copyOf = (p: string) => r.items.find((i) => i.path === p)?.reasons.find((x) => x.part === "prior" && /another version or translation/.test(x.why));
    const manuals = paths.filter((p) => p.startsWith("docs/"));
    assert.equal(manuals.length, 3, paths.join(", "));
    assert.equal(copyOf(manuals[0]!), undefined);
    for (const m of manuals.slice(1)) assert.match(copyOf(m)?.why ?? "", new RegExp(`of ${manuals[0]}`), m);
    const [first, second] = ["README.md", "doc/README-ja.md"].sort((x, y) => paths.indexOf(x) - paths.indexOf(y));
    assert.equal(copyOf(first!), undefined);
    if (second === "doc/README-ja.md") assert.ok(copyOf(second), paths.join(", "));
    assert.ok(paths.indexOf("src/builtin.c") < paths.indexOf(manuals[1]!), paths.join(", "));
  });
});
