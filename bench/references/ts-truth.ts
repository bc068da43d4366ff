/**
 * Reference truth for TypeScript and JavaScript from the TypeScript compiler: its parser for occurrences and its
 * checker for what a name is bound to. Same shape as python_truth.py:
 * - defs: module-level functions and classes (declarations, and `const f = () => …` / `function` expressions);
 * - uses: every identifier spelling such a name that can name the module-level definition: not a local (a symbol
 *   whose every declaration sits inside a function or block: parameters, local variables and functions, catch and
 *   loop variables), not a declaration's own name, property key, member name, label or import/export alias (a
 *   module-level variable's name counts, as a module-level assignment does in Python: `var Route = require(…)`);
 *   member accesses `x.name`, type references, imports, re-exports, shorthand `{ name }` and JSX tags count.
 */
import { join } from "node:path";
import ts from "typescript";

export interface Truth {
  defs: Record<string, [string, number][]>;
  uses: Record<string, [string, number][]>;
  unparsed: string[];
}

function add(table: Record<string, [string, number][]>, name: string, path: string, line: number): void {
  (table[name] ??= []).push([path, line]);
}

/** Declared inside a function or block (not at a source file's top level, not a class or interface member). */
function isLocalDeclaration(d: ts.Declaration): boolean {
  if (ts.isParameter(d) || ts.isTypeParameterDeclaration(d)) return true;
  if (ts.isImportSpecifier(d) || ts.isImportClause(d) || ts.isNamespaceImport(d) || ts.isImportEqualsDeclaration(d)) return false;
  if (ts.isPropertyDeclaration(d) || ts.isMethodDeclaration(d) || ts.isPropertySignature(d) || ts.isMethodSignature(d) || ts.isPropertyAssignment(d)) return false;
  for (let p: ts.Node | undefined = d.parent; p; p = p.parent) {
    if (ts.isSourceFile(p) || ts.isModuleBlock(p)) return false;
    if (ts.isFunctionLike(p) || ts.isBlock(p) || ts.isForStatement(p) || ts.isForInStatement(p) || ts.isForOfStatement(p) || ts.isCatchClause(p)) return true;
    if (ts.isClassLike(p) || ts.isInterfaceDeclaration(p) || ts.isObjectLiteralExpression(p)) return false;
  }
  return false;
}

/** Names that are not uses: a declaration's own name, keys, members, labels, aliases. */
function isNamePosition(id: ts.Identifier): boolean {
  const p = id.parent;
  if ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p) || ts.isMethodDeclaration(p) || ts.isPropertySignature(p) || ts.isMethodSignature(p)) && p.name === id) return true;
  if ((ts.isGetAccessor(p) || ts.isSetAccessor(p) || ts.isEnumMember(p) || ts.isJsxAttribute(p)) && p.name === id) return true;
  if ((ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isFunctionExpression(p) || ts.isClassExpression(p)) && p.name === id) return true;
  if ((ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p) || ts.isEnumDeclaration(p) || ts.isModuleDeclaration(p)) && p.name === id) return true;
  if (ts.isParameter(p) && p.name === id) return true;
  if (ts.isBindingElement(p) && p.propertyName === id) return true;
  if (ts.isLabeledStatement(p) || ts.isBreakOrContinueStatement(p)) return true;
  if ((ts.isImportSpecifier(p) || ts.isExportSpecifier(p)) && p.propertyName !== undefined && p.name === id) return true;
  return false;
}

function topLevelDefs(sf: ts.SourceFile, path: string, defs: Truth["defs"]): void {
  const line = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  for (const st of sf.statements) {
    if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name) add(defs, st.name.text, path, line(st.name));
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        const init = d.initializer;
        if (ts.isIdentifier(d.name) && init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isClassExpression(init))) add(defs, d.name.text, path, line(d.name));
      }
    }
  }
}

export function tsTruth(root: string, paths: string[]): Truth {
  const options: ts.CompilerOptions = {
    allowJs: true,
    checkJs: false,
    noEmit: true,
    jsx: ts.JsxEmit.Preserve,
    target: ts.ScriptTarget.ESNext,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
  };
  const files = paths.map((p) => join(root, p));
  const program = ts.createProgram(files, options);
  const checker = program.getTypeChecker();
  const truth: Truth = { defs: Object.create(null) as Truth["defs"], uses: Object.create(null) as Truth["uses"], unparsed: [] };
  for (const [i, abs] of files.entries()) {
    const path = paths[i]!;
    const sf = program.getSourceFile(abs);
    if (!sf || (sf as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics?.length) {
      truth.unparsed.push(path);
      continue;
    }
    topLevelDefs(sf, path, truth.defs);
    const visit = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && !isNamePosition(node)) {
        const p = node.parent;
        // A member name (`x.name`) is an occurrence whatever `x` is, as an attribute is in Python.
        const member = ts.isPropertyAccessExpression(p) && p.name === node;
        const sym = ts.isShorthandPropertyAssignment(p) && p.name === node ? checker.getShorthandAssignmentValueSymbol(p) : checker.getSymbolAtLocation(node);
        const decls = sym?.declarations ?? [];
        if (member || decls.length === 0 || !decls.every(isLocalDeclaration)) add(truth.uses, node.text, path, sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return truth;
}

/** For a quick look: `node --import tsx bench/references/ts-truth.ts ROOT FILE…`. */
if (process.argv[1]?.endsWith("ts-truth.ts")) {
  const [root, ...paths] = process.argv.slice(2);
  const t = tsTruth(root!, paths);
  console.log(JSON.stringify({ defs: t.defs, unparsed: t.unparsed, uses: Object.keys(t.uses).length }).slice(0, 2000));
}
