import { baseName, dirName } from "./names.js";
/**
 * What a file under the test conventions is: a test a runner runs, or support for tests (a helper, a fixture, a
 * snapshot). Only tests are proposed to run; snapshots go with the test that writes them; helpers and fixtures
 * are listed apart, since a change may need them updated but running them proves nothing.
 */

export type TestRole = "test" | "helper" | "fixture" | "snapshot";

/** Languages whose tests can prove each other's code: a TypeScript test runs JavaScript, a Kotlin test a Java class. */
const FAMILY: Record<string, string> = {
  javascript: "js",
  typescript: "js",
  tsx: "js",
  vue: "js",
  svelte: "js",
  java: "jvm",
  kotlin: "jvm",
  scala: "jvm",
  groovy: "jvm",
  c: "c",
  cpp: "c",
  "objective-c": "c",
};
/** Languages that hold code a test runner runs; any other (Markdown, TOML, JSON, text) is data to a test. */
const CODE_FAMILIES = new Set(["js", "jvm", "c", "python", "go", "rust", "ruby", "csharp", "php", "swift", "elixir", "dart"]);

export function familyOf(language: string | null): string | null {
  return language === null ? null : (FAMILY[language] ?? language);
}
export function isCodeLanguage(language: string | null): boolean {
  return CODE_FAMILIES.has(familyOf(language) ?? "");
}

/**
 * Folders of test inputs and outputs: what is in them is read by tests, never run as one. Names that mean test
 * input anywhere, and common words (data, examples) only inside a test folder (`packages/data/test/` is code).
 */
const FIXTURE_DIR = new RegExp(
  "(^|/)(fixtures?|__fixtures__|__mocks__|testdata|test_data|test-data|test_apps?)/" +
    "|(^|/)(test|tests|__tests__|spec|specs|testing|e2e)/(.*/)?(data|resources|assets|examples?|samples?|corpus|inputs?|expected)/",
  "i",
);
/** Folders and names of recorded outputs compared by snapshot testing (jest, insta, syrupy, Go golden files). */
const SNAPSHOT_DIR = /(^|\/)(__snapshots__|snapshots)\//;
const SNAPSHOT_NAME = /\.(snap|snap\.new|golden|ambr)$|\.approved\.[^/]+$/i;

export function isSnapshotPath(path: string): boolean {
  return SNAPSHOT_NAME.test(path) || (SNAPSHOT_DIR.test(path) && !/\.(rs|py|[cm]?[jt]sx?|go|java|kt)$/.test(path));
}

/** Test-runner calls in a JavaScript or TypeScript file (mocha, jest, vitest, node:test, jasmine, tap). */
const JS_TEST_CALLS = /(^|[^.\w])(describe|it|test|suite|context)(\.(only|skip|each|concurrent))?\s*\(\s*['"`]/m;
const RUST_TESTS = /#\[(\w+::)?test\b|#\[rstest\b|#\[cfg\(test\)\]/;
const JVM_TESTS = /@(Test|ParameterizedTest|RepeatedTest|TestFactory)\b|extends\s+TestCase\b/;
const PYTHON_TESTS = /^\s*(async\s+)?def\s+test_|\(\s*(unittest\.)?TestCase\s*\)/m;
const CSHARP_TESTS = /\[(Fact|Theory|Test|TestMethod|TestCase)\b/;

/** True when the file's name alone marks it as a test in its ecosystem. */
function namedAsTest(path: string, family: string | null): boolean {
  const name = baseName(path);
  switch (family) {
    case "python":
      return /^test_.*\.py$|_test\.py$|^tests\.py$/.test(name);
    case "go":
      return name.endsWith("_test.go");
    case "jvm":
      return /^(.+(Tests?|IT|Spec|Suite|TestCase)|Test[A-Z0-9_].*)\.\w+$/.test(name);
    case "js":
      return /\.(test|spec)\.[cm]?[jt]sx?$/i.test(name) || /(^|\/)__tests__\//.test(path);
    case "ruby":
      return /_spec\.rb$|^test_.*\.rb$|_test\.rb$/.test(name);
    case "csharp":
      return /Tests?\.cs$/.test(name);
    default:
      return false;
  }
}

/** A Rust integration-test target: a file directly in a crate's `tests/`, or `tests/<name>/main.rs`. */
function rustTestTarget(path: string): boolean {
  return /(^|\/)tests\/[^/]+\.rs$/.test(path) || /(^|\/)tests\/[^/]+\/main\.rs$/.test(path);
}

/**
 * A shell script in a test folder named as a test (`tests/playTests.sh`, `tests/shtest`, `t/run-tests.sh`): how C and
 * C++ projects (and many others) run their end-to-end suites. Other scripts there stay support.
 */
function shellTestScript(path: string, language: string | null): boolean {
  return language === "shell" && /(^|\/)(tests?|t|testing)\/[^/]*test[^/]*$/i.test(path);
}

/** Whether reading the file's text can change its role (a test by its content, not its name). */
export function roleNeedsContent(path: string, language: string | null): boolean {
  const family = familyOf(language);
  if (isSnapshotPath(path) || FIXTURE_DIR.test(path) || !isCodeLanguage(language)) return false;
  return !namedAsTest(path, family) && family !== "go" && !(family === "rust" && rustTestTarget(path));
}

/**
 * The role of a file under the test conventions. `content` is read only when `roleNeedsContent` says so; without it,
 * a file the name does not settle counts as a test (the conventions of an ecosystem this does not know).
 */
export function testRole(path: string, language: string | null, content: string | null): TestRole {
  if (isSnapshotPath(path)) return "snapshot";
  if (FIXTURE_DIR.test(path)) return "fixture";
  if (shellTestScript(path, language)) return "test";
  if (!isCodeLanguage(language)) return "fixture";
  const family = familyOf(language);
  if (namedAsTest(path, family)) return "test";
  if (family === "python" && /(^|\/)(conftest|__init__)\.py$/.test(path)) return "helper";
  if (family === "go") return "helper";
  if (family === "rust" && rustTestTarget(path)) return "test";
  if (content === null) return "test";
  const marker = { js: JS_TEST_CALLS, rust: RUST_TESTS, jvm: JVM_TESTS, python: PYTHON_TESTS, csharp: CSHARP_TESTS }[family as string];
  if (!marker) return "test";
  return marker.test(content) ? "test" : "helper";
}

/**
 * Snapshots a test writes: in `__snapshots__/` or `snapshots/` beside it (or in the folder above), named after the
 * test file (`foo.test.ts.snap`, insta's `integration_tests__case.snap`), or Go golden files under `testdata/`.
 */
export function snapshotOwnedBy(snapshot: string, test: string): boolean {
  const testDir = dirName(test);
  const snapDir = dirName(snapshot);
  const holder = snapDir.replace(/\/?(__snapshots__|snapshots|testdata)(\/.*)?$/, "");
  if (holder === snapDir || holder !== testDir) return false;
  const name = baseName(snapshot);
  const file = baseName(test);
  const stem = file.replace(/\.[^.]+$/, "");
  const subject = stem.replace(/_test$/, "");
  return name.startsWith(`${file}.`) || name.startsWith(`${stem}__`) || name.startsWith(`${stem}.`) || (subject !== stem && name.startsWith(subject));
}
