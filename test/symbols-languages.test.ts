import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { before, describe, test } from "node:test";
import { SymbolExtractor } from "../src/indexer/symbols/extract.js";
import { LANGUAGES } from "../src/indexer/symbols/languages.js";
import type { Extraction } from "../src/core/symbols.js";
import { assertGolden } from "./helpers/golden.js";

const FIXTURES = fileURLToPath(new URL("./fixtures/symbols/", import.meta.url));

/** Each language's fixture folder holds one source file and `key.json`: what must be found, whatever else is. */
interface Key {
  file: string;
  definitions: { qualifiedName: string; kind: string; visibility?: string }[];
  references: { name: string; kind: string; enclosing: string | null }[];
}

/** The readable golden form: one line per symbol and per reference. */
export function goldenLines(e: Extraction): { status: string; extractor: string | null; symbols: string[]; references: string[] } {
  return {
    status: e.status,
    extractor: e.extractor,
    symbols: e.symbols.map((s) => `${s.startLine}-${s.endLine} ${s.kind} ${s.qualifiedName}${s.visibility ? ` [${s.visibility}]` : ""} :: ${s.signature}`),
    references: e.references.map((r) => `${r.line}:${r.column} ${r.kind} ${r.name} <- ${r.enclosing ?? "(top level)"}`),
  };
}

describe("symbol extraction per language (golden fixtures)", () => {
  let extractor: SymbolExtractor;
  before(async () => {
    extractor = await SymbolExtractor.create();
  });

  const withFixtures = new Set(readdirSync(FIXTURES));
  for (const language of Object.keys(LANGUAGES)) {
    test(`${language}: fixture, key assertions and golden symbol table`, async () => {
      assert.ok(withFixtures.has(language), `no fixture folder test/fixtures/symbols/${language}/`);
      const key = JSON.parse(readFileSync(`${FIXTURES}${language}/key.json`, "utf8")) as Key;
      const text = readFileSync(`${FIXTURES}${language}/${key.file}`, "utf8");
      const result = await extractor.extract(language, key.file, text);
      assert.equal(result.extractor, "tree-sitter");
      assert.equal(result.status, "ok", `${language} fixture should parse without syntax errors`);
      for (const d of key.definitions) {
        const found = result.symbols.find((s) => s.qualifiedName === d.qualifiedName);
        assert.ok(found, `${language}: missing definition ${d.qualifiedName}; got ${result.symbols.map((s) => s.qualifiedName).join(", ")}`);
        assert.equal(found.kind, d.kind, `${language}: kind of ${d.qualifiedName}`);
        if (d.visibility) assert.equal(found.visibility, d.visibility, `${language}: visibility of ${d.qualifiedName}`);
      }
      for (const r of key.references) {
        const found = result.references.find((x) => x.name === r.name && x.kind === r.kind && x.enclosing === r.enclosing);
        assert.ok(found, `${language}: missing ${r.kind} reference to ${r.name} inside ${r.enclosing}`);
      }
      assertGolden(`symbols/${language}`, goldenLines(result));
    });
  }

  test("a language without a grammar falls back to lexical extraction and says so", async () => {
    const r = await extractor.extract("perl", "x.pl", "package Foo;\nsub greet {\n  print 'hi';\n}\n");
    assert.equal(r.extractor, "lexical");
    assert.equal(r.confidence, "low");
    assert.equal(r.status, "no_grammar");
    assert.deepEqual(r.symbols.map((s) => [s.name, s.kind, s.startLine]), [["Foo", "module", 1], ["greet", "function", 2]]);
  });

  test("a fresh extractor handles every language at once (grammars load concurrently in real indexing)", async () => {
    const fresh = await SymbolExtractor.create();
    const languages = Object.keys(LANGUAGES);
    const results = await Promise.all(
      languages.map(async (language) => {
        const key = JSON.parse(readFileSync(`${FIXTURES}${language}/key.json`, "utf8")) as Key;
        return fresh.extract(language, key.file, readFileSync(`${FIXTURES}${language}/${key.file}`, "utf8"));
      }),
    );
    assert.deepEqual(
      results.map((r, i) => [languages[i], r.extractor, r.detail]),
      languages.map((l) => [l, "tree-sitter", null]),
    );
  });

  test("the lexical fallback skips declarations that only name a type", async () => {
    const text = "struct sk_buff *skb_alloc(int len,\n\t\tstruct sk_buff *parent,\n\t\tstruct net_device *dev);\nstruct foo;\nstruct bar {\n\tint x;\n};\n";
    const r = await extractor.extract("perl", "x.c", text);
    assert.deepEqual(r.symbols.map((s) => [s.name, s.kind, s.startLine]), [["bar", "class", 5]]);
  });

  test("a parse that exceeds its time bound is abandoned and recorded, not fatal", async () => {
    const huge = "class A {\n" + "  void f() { g(1, 2, 3); }\n".repeat(20000) + "}\n";
    const r = await extractor.extract("java", "A.java", huge, 1);
    assert.equal(r.status, "timeout");
    assert.equal(r.extractor, "lexical");
  });

  test("syntax errors still yield symbols, with medium confidence", async () => {
    const r = await extractor.extract("java", "B.java", "class B {\n  void ok() {}\n  void broken( {\n}\n");
    assert.equal(r.status, "syntax_errors");
    assert.equal(r.confidence, "medium");
    assert.ok(r.symbols.some((s) => s.qualifiedName === "B#ok"));
  });
});
