import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import Database from "better-sqlite3";
import { fileTerms } from "../src/core/terms.js";
import { createTermsTableSql } from "../src/store/sqlite/migrations.js";
import { porterStem } from "../src/store/porter.js";

/**
 * porterStem must give every term the token SQLite's FTS5 `porter` tokenizer gives it (the terms table's own
 * tokenizer settings), or the PostgreSQL store would rank differently from the SQLite store.
 */

/** Classic Porter cases (every rule and condition), short and long tokens, digits and underscores. */
const CASES =
  "caresses ponies ties caress cats feed agreed plastered bled motoring sing conflated troubled sized hopping tanned " +
  "falling hissing fizzed failing filing happy sky relational conditional rational valenci hesitanci digitizer " +
  "conformabli radicalli differentli vileli analogousli vietnamization predication operator feudalism decisiveness " +
  "hopefulness callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti electrical " +
  "hopeful goodness revival allowance inference airliner gyroscopic adjustable defensible irritant replacement " +
  "adjustment dependent adoption homologou communism activate angulariti homologous effective bowdlerize probate " +
  "rate cease controll roll generalizations oscillators aed xed eed ied yes ab abc sses ies utf8s x86_64ing " +
  "a_b_ed __init__ expiring expired expiration quoting quotes " +
  `${"a".repeat(64)}ing ${"b".repeat(61)}ing`;

/** The terms of every file under these folders, as the indexer makes them. */
function vocabulary(dirs: string[]): Set<string> {
  const words = new Set(CASES.split(" "));
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const t = fileTerms(p, readFileSync(p, "utf8"), []);
        for (const field of [t.path, t.symbols, t.body]) for (const w of field.split(" ")) if (w) words.add(w);
      }
    }
  };
  for (const d of dirs) walk(d);
  return words;
}

test("porterStem gives SQLite FTS5's porter tokens", () => {
  const words = [...vocabulary([join(import.meta.dirname, "..", "src"), join(import.meta.dirname, "fixtures")])];
  assert.ok(words.length > 3000, `${words.length} words`);
  const db = new Database(":memory:");
  try {
    db.exec(`${createTermsTableSql("t").replace("detail = 'column', content = '', contentless_delete = 1", "detail = 'full'")}
      CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    const insert = db.prepare("INSERT INTO t (rowid, path, symbols, body) VALUES (?, ?, '', '')");
    db.transaction(() => words.forEach((w, i) => insert.run(i + 1, w)))();
    const mismatches: string[] = [];
    let compared = 0;
    for (const r of db.prepare("SELECT doc, term FROM v").iterate() as IterableIterator<{ doc: number; term: string }>) {
      const word = words[r.doc - 1]!;
      compared += 1;
      if (porterStem(word) !== r.term) mismatches.push(`${word}: sqlite ${r.term}, porterStem ${porterStem(word)}`);
    }
    assert.equal(compared, words.length, "one token per term");
    assert.deepEqual(mismatches.slice(0, 20), []);
    assert.equal(porterStem("expiring"), porterStem("expired"));
  } finally {
    db.close();
  }
});
