/**
 * Go: every go.mod is a module named by its `module` path; go.work `use` lists the workspace. go.mod and
 * go.work are line formats (directive + arguments, or a parenthesised block of them), read by a line tokenizer.
 * Commands run inside the module folder: `cd <dir> && go test ./...`.
 */
import {
  cdPrefix,
  dirName,
  emptyCollected,
  folderName,
  joinPath,
  newModule,
  relativePath,
  type Collected,
  type Context,
} from "./common.js";
import type { ManifestFile } from "../../../core/knowledge.js";

export interface GoDirective {
  verb: string;
  args: string[];
  line: number;
}

/** Directives of a go.mod / go.work text; block entries come out as their own directive with the block's verb. */
export function parseGoDirectives(file: ManifestFile, warn: (line: number, reason: string) => void): GoDirective[] {
  const out: GoDirective[] = [];
  let block: { verb: string; line: number } | null = null;
  const lines = file.content.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const tokens = tokenizeGoLine(lines[n]!);
    if (tokens === null) {
      warn(n + 1, "unterminated string");
      continue;
    }
    if (tokens.length === 0) continue;
    if (block) {
      if (tokens[0] === ")") {
        block = null;
        continue;
      }
      out.push({ verb: block.verb, args: tokens, line: n + 1 });
      continue;
    }
    const [verb, ...args] = tokens as [string, ...string[]];
    if (args.length === 1 && args[0] === "(") {
      block = { verb, line: n + 1 };
      continue;
    }
    if (args.length === 0) {
      warn(n + 1, `directive "${verb}" has no arguments`);
      continue;
    }
    out.push({ verb, args, line: n + 1 });
  }
  if (block) warn(block.line, `"${block.verb} (" block is never closed`);
  return out;
}

/** Tokens of one line: bare words, "quoted" and `raw` strings; `//` starts a comment. Null when a quote is open. */
function tokenizeGoLine(line: string): string[] | null {
  const out: string[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "/" && line[i + 1] === "/") break;
    if (c === '"' || c === "`") {
      let j = i + 1;
      let value = "";
      while (j < line.length && line[j] !== c) {
        if (c === '"' && line[j] === "\\" && j + 1 < line.length) j++;
        value += line[j];
        j++;
      }
      if (j >= line.length) return null;
      out.push(value);
      i = j + 1;
      continue;
    }
    if (c === "(" || c === ")") {
      out.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < line.length && !" \t\r()\"`".includes(line[j]!) && !(line[j] === "/" && line[j + 1] === "/")) j++;
    out.push(line.slice(i, j));
    i = j;
  }
  return out;
}

function isLocalPath(p: string): boolean {
  return p.startsWith("./") || p.startsWith("../") || p === "." || p === "..";
}

export function collectGo(ctx: Context): Collected {
  const out = emptyCollected();
  interface GoMod {
    file: ManifestFile;
    dir: string;
    name: string;
    requires: string[];
    localReplaces: { dir: string; line: number }[];
  }
  const mods: GoMod[] = [];
  for (const file of ctx.named("go.mod")) {
    const dir = dirName(file.path);
    const directives = parseGoDirectives(file, (line, reason) => ctx.warn(file.path, line, reason));
    let name: string | null = null;
    const requires: string[] = [];
    const localReplaces: GoMod["localReplaces"] = [];
    for (const d of directives) {
      if (d.verb === "module" && name === null) name = d.args[0] ?? null;
      else if (d.verb === "require" && d.args[0]) requires.push(d.args[0]);
      else if (d.verb === "replace") {
        const arrow = d.args.indexOf("=>");
        const target = arrow >= 0 ? d.args[arrow + 1] : undefined;
        if (target !== undefined && isLocalPath(target)) {
          const to = joinPath(dir, target);
          if (to !== null) localReplaces.push({ dir: to, line: d.line });
        }
      }
    }
    if (name === null) {
      ctx.warn(file.path, null, "no module directive; using the folder name");
      name = folderName(dir);
    }
    mods.push({ file, dir, name, requires, localReplaces });
  }

  const byName = new Map(mods.map((m) => [m.name, m]));
  const byDir = new Map(mods.map((m) => [m.dir, m]));

  // go.work: check its `use` folders; at the root it defines how to test the whole workspace.
  for (const file of ctx.named("go.work")) {
    const dir = dirName(file.path);
    const targets: string[] = [];
    for (const d of parseGoDirectives(file, (line, reason) => ctx.warn(file.path, line, reason))) {
      if (d.verb !== "use") continue;
      const used = joinPath(dir, d.args[0] ?? "");
      if (used === null || !byDir.has(used)) {
        ctx.warn(file.path, d.line, `use ${d.args[0] ?? ""}: no go.mod in that folder`);
        continue;
      }
      const rel = relativePath(dir, used);
      targets.push(rel === "" ? "./..." : `./${rel}/...`);
    }
    if (dir === "" && targets.length > 0) {
      // `./...` does not cross module boundaries, even in workspace mode: name every module.
      out.roots.push({ buildSystem: "go", command: `go test ${[...new Set(targets)].sort().join(" ")}` });
    }
  }

  for (const m of mods) {
    const dependsOn: string[] = [];
    for (const r of m.requires) if (byName.has(r) && r !== m.name) dependsOn.push(r);
    for (const r of m.localReplaces) {
      const hit = byDir.get(r.dir);
      if (hit && hit !== m) dependsOn.push(hit.name);
      else if (!hit) ctx.warn(m.file.path, r.line, `replace points at ${r.dir}, which has no go.mod`);
    }
    const prefix = cdPrefix(m.dir);
    const module = newModule({
      name: m.name,
      path: m.dir,
      buildSystem: "go",
      manifest: m.file.path,
      dependsOn,
      buildCommand: `${prefix}go build ./...`,
      testCommand: `${prefix}go test ./...`,
      testRunner: "go",
      commandSource: "convention: go test",
    });
    out.drafts.push({
      module,
      finish: (stats) => {
        if (stats.topDirs.has("cmd") || stats.names.has("main.go")) module.type = "app";
      },
    });
  }
  return out;
}
