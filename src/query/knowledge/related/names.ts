/**
 * What source files and tests are named after, and how close two such names are: the exact convention of each
 * ecosystem (`quote.ts` ↔ `quote.test.ts`, `QuoteService` ↔ `QuoteServiceTest`), modules named by their folder
 * (`plugin/cors/index.js` ↔ `plugin/cors.test.js`), and the looser habits of real repositories (`req.hostname.js`
 * testing `request.js`, `JsonAdapterSerializerTest` testing `JsonAdapterAnnotationTypeAdapterFactory`).
 */

/** File names that name no module themselves: the module is the folder (`index.js`, `mod.rs`, `__init__.py`). */
const FOLDER_NAMED = new Set(["index", "main", "mod", "lib", "__init__", "__main__", "init"]);
/** An abbreviation shorter than this (`a`, `io`) says nothing about which file it stands for. */
const MIN_ABBREVIATION = 3;
/** Leading words two names must share to be near (`JsonAdapter…`), and the share of the shorter name they must cover. */
const MIN_SHARED_WORDS = 2;
const MIN_SHARED_SHARE = 0.5;

/** `a/b/c.ts` → `c.ts`: the file-name helper of the related-tests code. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}
/** `a/b/c.ts` → `a/b`; "" at the root. */
export function dirName(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}
function parentFolder(path: string): string {
  const segs = path.split("/");
  return segs.length >= 2 ? segs[segs.length - 2]! : "";
}

/** The stem, or for a folder-named module (`src/plugin/cors/index.js`) the folder's name; "" at the root. */
export function moduleNameOf(stem: string, path: string): string {
  return FOLDER_NAMED.has(stem.toLowerCase()) ? parentFolder(path) : stem;
}

/** `fooBarBaz`, `foo_bar-baz`, `FooBAR` → lower-case words. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/**
 * How a test's name relates to a source module's name, short of the exact convention: `abbreviation` when the
 * test is named `<prefix>.<member>` and the prefix starts the module's name (`res.location` for `response`);
 * `shared-words` when both names start with the same words, covering at least half of the shorter.
 */
export function nameNearness(testName: string, moduleName: string): "abbreviation" | "shared-words" | null {
  const mod = moduleName.toLowerCase();
  const dot = testName.indexOf(".");
  if (dot >= MIN_ABBREVIATION) {
    const prefix = testName.slice(0, dot).toLowerCase();
    if (mod.startsWith(prefix) && mod !== prefix) return "abbreviation";
  }
  const a = wordsOf(testName);
  const b = wordsOf(moduleName);
  let shared = 0;
  while (shared < a.length && shared < b.length && a[shared] === b[shared]) shared += 1;
  const shorter = Math.min(a.length, b.length);
  return shared >= MIN_SHARED_WORDS && shared < Math.max(a.length, b.length) && shared / shorter >= MIN_SHARED_SHARE ? "shared-words" : null;
}

/**
 * A test named after the module's folder and name joined (`tests/macros_select.rs` for `src/macros/select.rs`,
 * `tests/task_local_set.rs` for `src/task/local.rs`), or after the folder module holding it and that folder's parent
 * (`tests/sync_mpsc.rs` for `src/sync/mpsc/mod.rs` and `src/sync/mpsc/bounded.rs`): the flat test folders of Rust
 * crates and C projects. Returns the pair it is named after (`macros/select`), or null.
 */
export function namedAfterFolderAndModule(testName: string, modulePath: string, moduleName: string): string | null {
  const segs = dirName(modulePath).split("/").filter((s) => s !== "");
  const folder = segs[segs.length - 1] ?? "";
  const pairs: [string, string][] = [];
  if (folder !== "" && moduleName !== "" && folder !== moduleName) pairs.push([folder, moduleName]);
  if (segs.length >= 2) pairs.push([segs[segs.length - 2]!, folder]);
  const have = wordsOf(testName);
  for (const [outer, inner] of pairs) {
    const want = [...wordsOf(outer), ...wordsOf(inner)];
    if (have.length >= want.length && want.every((w, i) => have[i] === w)) return `${outer}/${inner}`;
  }
  return null;
}

/** `QuoteService.java` → `QuoteService`; `format.ts` → `format`. */
export function stemOf(path: string): string {
  const name = baseName(path);
  const dot = name.indexOf(".", 1);
  return dot < 0 ? name : name.slice(0, dot);
}
/** What a test file is named after: `QuoteServiceTest.java`, `test_quote.py`, `quote.test.ts`, `limiter_test.go` → the subject. */
export function testSubject(path: string): string {
  const name = baseName(path);
  const noExt = name.replace(/(\.(test|spec))?\.[^.]+$/i, "");
  return noExt
    .replace(/^test_/i, "")
    .replace(/(_test|_spec|[-_.](test|spec))$/i, "")
    .replace(/(Tests?|IT|Spec|Suite)$/, "")
    .replace(/^Test(?=[A-Z])/, "");
}
/** Case and separators ignored: quote_service, quoteService and QuoteService are one key. */
export function key(name: string): string {
  return name.toLowerCase().replace(/[-_.]/g, "");
}

/** Folders where tests of a source folder conventionally live. */
export function mirroredDirs(dir: string): string[] {
  const out = new Set<string>();
  const swaps: [RegExp, string][] = [
    [/(^|\/)src\/main\//, "$1src/test/"],
    [/(^|\/)src\/main$/, "$1src/test"],
    [/(^|\/)src(\/|$)/, "$1test$2"],
    [/(^|\/)src(\/|$)/, "$1tests$2"],
    [/(^|\/)src(\/|$)/, "$1__tests__$2"],
    [/(^|\/)lib(\/|$)/, "$1test$2"],
    [/(^|\/)lib(\/|$)/, "$1tests$2"],
  ];
  for (const [re, to] of swaps) if (re.test(dir)) out.add(dir.replace(re, to));
  out.add(dir === "" ? "__tests__" : `${dir}/__tests__`);
  out.add(dir === "" ? "tests" : `${dir}/tests`);
  out.add(dir === "" ? "test" : `${dir}/test`);
  out.delete(dir);
  return [...out];
}
