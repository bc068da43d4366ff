/**
 * Tests that live in the source itself: Rust `#[cfg(test)]` modules (in the file, or in the `mod tests;` file it
 * declares), Rust doc tests (code blocks in `///` comments) and Python doctests (`>>>` in docstrings).
 */
import type { FileRow } from "../../../store/store.js";
import type { QueryContext } from "../../context.js";
import { dirName } from "./names.js";

export interface InlineTest {
  file: FileRow;
  kind: "inline" | "doc";
  /** The Rust module path that selects the tests (`printer`, `style::theme`); null for a crate root or Python. */
  modulePath: string | null;
  detail: string;
}

const RUST_TEST_MODULE = /#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod\s+\w+\s*\{/;
const RUST_TEST_FN = /#\[(\w+::)?test\b/;
const RUST_TEST_MODULE_FILE = /#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*mod\s+(\w+)\s*;/g;
/** A fenced code block in a `///` or `//!` comment: rustdoc compiles and runs it. */
const RUST_DOC_TEST = /^\s*\/\/[/!]\s*```(?!\s*(text|ignore|console|sh|bash|toml|json)\b)/m;
const PYTHON_DOCTEST = /^\s*>>> /m;

/** `src/style/theme.rs` → `style::theme`; `src/lib.rs`, `src/main.rs` → null (the crate root); `src/x/mod.rs` → `x`. */
export function rustModulePath(path: string): string | null {
  const i = path.lastIndexOf("src/");
  if (i < 0 || (i > 0 && path[i - 1] !== "/")) return null;
  const segs = path.slice(i + "src/".length).replace(/\.rs$/, "").split("/");
  if (segs[0] === "bin") return null;
  if (segs.length === 1 && (segs[0] === "lib" || segs[0] === "main")) return null;
  if (segs[segs.length - 1] === "mod") segs.pop();
  return segs.join("::");
}

/** Where a Rust module's child modules live: beside `lib.rs`/`main.rs`/`mod.rs`, else in the folder named after it. */
function childDir(path: string): string {
  const dir = dirName(path);
  return /(^|\/)(lib|main|mod)\.rs$/.test(path) ? dir : path.replace(/\.rs$/, "");
}

/** The tests inside one changed source file (or in the test module file it declares). */
export async function inlineTestsOf(ctx: QueryContext, file: FileRow): Promise<InlineTest[]> {
  if (file.language !== "rust" && file.language !== "python") return [];
  const text = await ctx.store.getContent(ctx.index.id, file.path);
  if (text === null) return [];
  const out: InlineTest[] = [];
  if (file.language === "python") {
    if (PYTHON_DOCTEST.test(text)) out.push({ file, kind: "doc", modulePath: null, detail: `${file.path} has doctests (>>> examples in its docstrings)` });
    return out;
  }
  const modulePath = rustModulePath(file.path);
  if (RUST_TEST_MODULE.test(text) || RUST_TEST_FN.test(text)) out.push({ file, kind: "inline", modulePath, detail: `${file.path} holds its own #[cfg(test)] tests` });
  for (const m of text.matchAll(RUST_TEST_MODULE_FILE)) {
    const dir = childDir(file.path);
    for (const candidate of [`${dir}/${m[1]}.rs`, `${dir}/${m[1]}/mod.rs`]) {
      const child = await ctx.store.getFile(ctx.index.id, candidate);
      if (!child) continue;
      out.push({ file: child, kind: "inline", modulePath: modulePath === null ? m[1]! : `${modulePath}::${m[1]}`, detail: `the #[cfg(test)] module ${m[1]} that ${file.path} declares` });
      break;
    }
  }
  if (RUST_DOC_TEST.test(text)) out.push({ file, kind: "doc", modulePath, detail: `${file.path} has doc tests (code examples in its /// comments)` });
  return out;
}
