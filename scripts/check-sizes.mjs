#!/usr/bin/env node
/**
 * Size limits of src/ (CONVENTIONS.md "Avoid"): no file over MAX_FILE_LINES lines, no function over MAX_FN_LINES lines
 * (counted from its first to its last line, with the TypeScript parser). Prints the offenders and exits 1 when there
 * are any; `--list N` prints every function over N lines instead, without failing.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const MAX_FILE_LINES = 600;
const MAX_FN_LINES = 120;
const root = new URL("../src/", import.meta.url).pathname;
const listAt = process.argv[2] === "--list" ? Number(process.argv[3] ?? 100) : null;

function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? tsFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

function nameOf(node) {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))) return parent.name.getText();
  return "(anonymous)";
}

const offenders = [];
for (const file of tsFiles(root).sort()) {
  const rel = file.slice(root.length - "src/".length);
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const lines = source.getLineStarts().length;
  if (listAt === null && lines > MAX_FILE_LINES) offenders.push(`${rel}: ${lines} lines (limit ${MAX_FILE_LINES})`);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      const limit = listAt ?? MAX_FN_LINES;
      if (length > limit) offenders.push(`${rel}:${start + 1}: ${nameOf(node)} is ${length} lines (limit ${limit})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}
for (const o of offenders) console.log(o);
if (listAt === null) {
  if (offenders.length > 0) process.exit(1);
  console.log(`sizes: no file in src/ over ${MAX_FILE_LINES} lines, no function over ${MAX_FN_LINES}`);
}
