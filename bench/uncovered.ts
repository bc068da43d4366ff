/**
 * Where no compiler truth runs on this machine (Go, Rust), what the index's references leave uncovered: for each
 * module-level function, type or constant defined once, every whole-word occurrence of its name in files of that
 * language, outside comments and string literals (tree-sitter's own nodes), that is neither a stored reference nor
 * the definition's name. Each is printed with its line, to be read: a local of the same name is right to leave out,
 * anything else is a miss. Also counts references per name, and samples references for a precision read.
 *
 *   node --import tsx bench/uncovered.ts --repo DIR --language rust|go|java [--sample N] [--show N]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Language, Parser, type Node } from "web-tree-sitter";
import { createRequire } from "node:module";
import { defaultOperatorConfig } from "../src/config/schema.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { languageSpec } from "../src/indexer/symbols/languages.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";

const args = process.argv.slice(2);
const opt = (name: string, dflt: string | null = null) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1]! : dflt;
};
const root = opt("repo")!;
const language = opt("language")!;
const show = Number(opt("show", "25"));
const sample = Number(opt("sample", "30"));

/** Byte ranges of comments and string literals: occurrences there are prose or data, not code. */
function proseRanges(tree: Node): [number, number][] {
  const out: [number, number][] = [];
  const walk = (n: Node) => {
    if (/comment|string_literal|raw_string|interpreted_string|char_literal|^string$/.test(n.type)) {
      out.push([n.startIndex, n.endIndex]);
      return;
    }
    for (const c of n.children) if (c) walk(c);
  };
  walk(tree);
  return out;
}

const base = mkdtempSync(join(tmpdir(), "repoctx-uncovered-"));
const store = SqliteStore.open(join(base, "index.db"));
try {
  const built = await buildIndex({ root, store, maxFileBytes: defaultOperatorConfig().repoContext.maxIndexedFileBytes });
  const files = (await store.listFiles(built.indexId)).filter((f) => f.language === language && f.symbolStatus === "ok" && !f.isGenerated && !f.isVendored);
  await Parser.init();
  const spec = languageSpec(language)!;
  const wasm = createRequire(import.meta.url).resolve(`${spec.grammar.package}/${spec.grammar.file}`);
  const parser = new Parser();
  parser.setLanguage(await Language.load(wasm));
  const texts = new Map<string, { text: string; prose: [number, number][]; lineStarts: number[] }>();
  for (const f of files) {
    const text = readFileSync(join(root, f.path), "utf8");
    const tree = parser.parse(text)!;
    const lineStarts = [0];
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
    texts.set(f.path, { text, prose: proseRanges(tree.rootNode), lineStarts });
    tree.delete();
  }
  const defs = (await store.findSymbols(built.indexId, { language, limit: 1_000_000 })).filter((s) => ["function", "class", "constant", "type", "interface", "enum"].includes(s.kind) && s.name.length >= 3);
  const byName = new Map<string, typeof defs>();
  for (const d of defs) byName.set(d.name, [...(byName.get(d.name) ?? []), d]);
  let names = 0;
  let refs = 0;
  let value = 0;
  const uncovered: string[] = [];
  const valueSample: string[] = [];
  for (const [name, list] of byName) {
    if (list.length !== 1 || (await store.findSymbols(built.indexId, { name, limit: 3 })).length !== 1) continue;
    names += 1;
    const d = list[0]!;
    const rows = (await store.findReferences(built.indexId, { name, limit: 100_000 })).filter((r) => texts.has(r.path));
    refs += rows.length;
    for (const r of rows) if (r.kind === "value" && valueSample.length < 5000) valueSample.push(`${r.path}:${r.line}: ${texts.get(r.path)!.text.split("\n")[r.line - 1]!.trim().slice(0, 140)}  [${name}]`);
    value += rows.filter((r) => r.kind === "value").length;
    const covered = new Set(rows.map((r) => `${r.path}:${r.line}:${r.column}`));
    covered.add(`${d.path}:${d.startLine}:${d.startColumn}`);
    const word = new RegExp(`(?<![\\w$])${name}(?![\\w$])`, "g");
    for (const [path, t] of texts) {
      for (const m of t.text.matchAll(word)) {
        const at = m.index!;
        if (t.prose.some(([s, e]) => s <= at && at < e)) continue;
        let line = t.lineStarts.findIndex((s) => s > at);
        line = line === -1 ? t.lineStarts.length : line;
        const column = at - t.lineStarts[line - 1]! + 1;
        if (covered.has(`${path}:${line}:${column}`)) continue;
        if (path === d.path && line === d.startLine) continue;
        uncovered.push(`${path}:${line}: ${t.text.split("\n")[line - 1]!.trim().slice(0, 140)}  [${name}]`);
      }
    }
  }
  console.log(`${root} ${language}: ${files.length} files, ${names} names defined once, ${refs} references (${value} value), ${uncovered.length} uncovered code occurrences`);
  // A deterministic spread of the uncovered occurrences, for reading.
  const ustep = Math.max(1, Math.floor(uncovered.length / Math.max(1, show)));
  for (let i = 0; i < uncovered.length && i / ustep < show; i += ustep) console.log(`  uncovered ${uncovered[i]}`);
  // A deterministic spread of value references, for reading.
  const step = Math.max(1, Math.floor(valueSample.length / Math.max(1, sample)));
  for (let i = 0; i < valueSample.length && i / step < sample; i += step) console.log(`  value ${valueSample[i]}`);
} finally {
  await store.close();
  rmSync(base, { recursive: true, force: true });
}
