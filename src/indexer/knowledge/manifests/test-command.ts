/**
 * One test file (or class, or named tests) run with the module's own build tool: the module's test command,
 * narrowed the way its runner narrows (`-Dtest=`, `--tests`, `-- <file>`, `-run`, `--test`, `--filter`).
 */
import type { BuildGraph, RepoModule } from "../../../core/knowledge.js";
import {
  alwaysQuote,
  cdPrefix,
  dirName,
  escapeRegExp,
  insidePath,
  isUnder,
  shellQuote,
  splitCd,
  stemOf,
} from "./common.js";
import { familyOf } from "./files.js";

export interface TestTarget {
  path: string;
  className?: string | null;
  qualifiedClass?: string | null;
  testNames?: string[];
  /** Tests inside a source file (`inline`: Rust `#[cfg(test)]`) or in its documentation (`doc`: doc tests, doctests). */
  kind?: "file" | "inline" | "doc";
  /** The source file's module path (`printer`, `style::theme`) for tests inside it; null for the crate root. */
  modulePath?: string | null;
}

export function testCommandFor(module: RepoModule, test: TestTarget, graph?: BuildGraph): string | null {
  const path = test.path.replace(/\\/g, "/");
  if (module.testCommand === null || module.testRunner === null) {
    // No tests of its own (a package tested by the root's jest, a .NET library): the nearest enclosing
    // module of the same ecosystem that has a test command.
    if (!graph) return null;
    let best: RepoModule | null = null;
    for (const m of graph.modules) {
      if (m === module || m.testCommand === null || familyOf(m.buildSystem) !== familyOf(module.buildSystem)) continue;
      if (m.path === module.path || !isUnder(module.path, m.path)) continue;
      if (best === null || m.path.length > best.path.length) best = m;
    }
    return best ? testCommandFor(best, { ...test, path }) : null;
  }
  const rel = insidePath(module.path, path);
  if (rel === null) return null;
  const { prefix, rest } = splitCd(module.testCommand);
  const stem = stemOf(rel);
  const names = (test.testNames ?? []).filter((n) => n.trim() !== "");
  const className = test.className?.trim() || null;
  const qualified = test.qualifiedClass?.trim() || null;

  switch (module.testRunner) {
    case "maven": {
      if (!rest.endsWith(" test")) return null;
      const cls = className ?? simpleName(qualified) ?? stem;
      const spec = names.length > 0 ? `${cls}#${names.join("+")}` : cls;
      return `${prefix}${rest.slice(0, -" test".length)} -Dtest=${shellQuote(spec)} test`;
    }
    case "gradle": {
      const space = rest.lastIndexOf(" ");
      if (space < 0) return null;
      const tool = rest.slice(0, space);
      const task = rest.slice(space + 1);
      if (task !== "test" && !task.endsWith(":test")) return null;
      const filter = qualified ?? qualifiedFromSourcePath(rel) ?? className ?? stem;
      const filters = names.length > 0 ? names.map((n) => `${filter}.${n}`) : [filter];
      // The root project's own `test` task: a bare `test` would run (and filter) every project's.
      const ownTask = task === "test" ? ":test" : task;
      return `${prefix}${tool} ${ownTask} ${filters.map((f) => `--tests ${alwaysQuote(f)}`).join(" ")}`;
    }
    case "jest":
    case "vitest":
    case "node-test":
    case "mocha": {
      const option = names.length === 0 ? "" : NAME_OPTIONS[module.testRunner];
      const pattern = option ? ` ${option}${alwaysQuote(namesRegExp(names))}` : "";
      if (module.testFileCommand) return `${module.testFileCommand}${pattern} ${shellQuote(rel)}`;
      // A module described without testFileCommand: the runner's plain form.
      const plain = FALLBACK_COMMANDS[module.testRunner];
      return module.testRunner === "jest" || module.testRunner === "vitest"
        ? `${module.testCommand} --${pattern} ${shellQuote(rel)}`
        : `${cdPrefix(module.path)}${plain}${pattern} ${shellQuote(rel)}`;
    }
    case "npm-script":
      return null;
    case "pytest": {
      if (test.kind === "doc") return `${prefix}pytest --doctest-modules ${shellQuote(rel)}`;
      const cls = pythonClass(className ?? simpleName(qualified), stem);
      const node = cls ? `${rel}::${cls}` : rel;
      // Node ids (`path::Class::test_name`) select exactly those tests; -k would also match names containing them.
      if (names.length > 0) return `${prefix}pytest ${names.map((n) => shellQuote(n.includes("::") ? `${rel}::${n}` : `${node}::${n}`)).join(" ")}`;
      return `${prefix}pytest ${shellQuote(node)}`;
    }
    case "unittest": {
      if (!rel.endsWith(".py")) return null;
      const dotted = rel.slice(0, -3).split("/").join(".");
      const cls = pythonClass(className ?? simpleName(qualified), stem);
      const base = cls ? `${dotted}.${cls}` : dotted;
      const targets = cls && names.length > 0 ? names.map((n) => `${base}.${n}`) : [base];
      return `${prefix}python -m unittest ${targets.map(shellQuote).join(" ")}`;
    }
    case "go": {
      const dir = dirName(rel);
      const pkg = dir === "" ? "." : `./${dir}`;
      const run = names.length > 0 ? ` -run ${alwaysQuote(`^(${names.map(escapeRegExp).join("|")})$`)}` : "";
      return `${prefix}go test ${shellQuote(pkg)}${run}`;
    }
    case "cargo": {
      // Tests inside a source file: its module path selects them (`cargo test printer::`); doc tests run with --doc.
      if (test.kind === "doc") return `${prefix}${rest} --doc${test.modulePath ? ` ${shellQuote(`${test.modulePath}::`)}` : ""}`;
      if (test.kind === "inline") return `${prefix}${rest}${test.modulePath ? ` ${shellQuote(`${test.modulePath}::`)}` : " --lib"}`;
      const segs = rel.split("/");
      let target = "";
      if (segs[0] === "tests" && segs.length === 2 && segs[1]!.endsWith(".rs")) target = ` --test ${shellQuote(stemOf(segs[1]!))}`;
      else if (segs[0] === "tests" && segs.length === 3 && segs[2] === "main.rs") target = ` --test ${shellQuote(segs[1]!)}`;
      const filter = names.length > 0 ? ` -- ${names.map(shellQuote).join(" ")}` : "";
      return `${prefix}${rest}${target}${filter}`;
    }
    case "dotnet": {
      const cls = qualified ?? className ?? stem;
      const filter = names.length > 0 ? names.map((n) => `FullyQualifiedName~${cls}.${n}`).join("|") : `FullyQualifiedName~${cls}`;
      return `${module.testCommand} --filter ${shellQuote(filter)}`;
    }
    default:
      return null;
  }
}

/** How each JavaScript runner selects tests by name (followed directly by the quoted pattern). */
const NAME_OPTIONS = { jest: "-t ", vitest: "-t ", "node-test": "--test-name-pattern=", mocha: "--grep " } as const;
const FALLBACK_COMMANDS = { jest: "npx jest", vitest: "npx vitest run", "node-test": "node --test", mocha: "npx mocha" } as const;

/** A Python test class; a "class name" equal to the file's stem (`test_cart`) is the module, not a class. */
function pythonClass(name: string | null, stem: string): string | null {
  return name === null || name === stem ? null : name;
}

function simpleName(qualified: string | null): string | null {
  if (qualified === null) return null;
  const i = qualified.lastIndexOf(".");
  return i < 0 ? qualified : qualified.slice(i + 1);
}

/** `src/<sourceSet>/<lang>/com/acme/FooTest.kt` -> `com.acme.FooTest`. */
function qualifiedFromSourcePath(rel: string): string | null {
  const segs = rel.split("/");
  if (segs.length < 4 || segs[0] !== "src") return null;
  const pkg = segs.slice(3, -1);
  return [...pkg, stemOf(rel)].join(".");
}

/** Unanchored: jest, vitest, mocha and node match against the full name, describe blocks included. */
function namesRegExp(names: string[]): string {
  return names.map(escapeRegExp).join("|");
}
