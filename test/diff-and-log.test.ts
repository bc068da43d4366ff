import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  MAX_DIFF_FILES,
  MAX_HUNK_TEXT_CHARS_PER_FILE,
  MAX_MALFORMED,
  parseUnifiedDiff,
  type DiffFile,
  type ParsedDiff,
} from "../src/query/context-package/diff.js";
import { diffSummary, diffViolations } from "../src/query/context-package/diff-rules.js";
import {
  EXCERPT_LINES,
  MAX_LOG_FAILURES,
  MAX_LOG_LINE_CHARS,
  MAX_LOG_LOCATIONS,
  summarizeVerifierLog,
} from "../src/query/context-package/verifier-log.js";

const lines = (...l: string[]): string => `${l.join("\n")}\n`;

/** Deterministic pseudo-random text, so a failure reproduces. */
function randomText(length: number, alphabet: string, seed = 42): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < length; i += 1) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(alphabet[x % alphabet.length]!);
  }
  return out.join("");
}

function file(diff: ParsedDiff, path: string): DiffFile {
  const f = diff.files.find((x) => x.path === path);
  assert.ok(f, `no file ${path} in ${JSON.stringify(diff.files.map((x) => x.path))}`);
  return f;
}

const FORMAT_PATCH = lines(
  "From 3f2a1c0d9e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f Mon Sep 17 00:00:00 2001",
  "From: Dev <dev@example.com>",
  "Date: Tue, 2 Apr 2024 10:00:00 +0200",
  "Subject: [PATCH] Move quote service and tidy up",
  "",
  "The body mentions --- and +++ and @@ but is not a diff.",
  "---",
  " services/pricing/QuoteService.java | 4 ++--",
  " 6 files changed, 9 insertions(+), 4 deletions(-)",
  "",
  "diff --git a/services/pricing/OldQuote.java b/services/pricing/QuoteService.java",
  "similarity index 90%",
  "rename from services/pricing/OldQuote.java",
  "rename to services/pricing/QuoteService.java",
  "index 83db48f..bf269f4 100644",
  "--- a/services/pricing/OldQuote.java",
  "+++ b/services/pricing/QuoteService.java",
  "@@ -1,4 +1,4 @@",
  " package pricing;",
  "-class OldQuote {",
  "+class QuoteService {",
  "   int total() { return 1; }",
  " }",
  "diff --git a/src/new.ts b/src/new.ts",
  "new file mode 100644",
  "index 0000000..e69de29",
  "--- /dev/null",
  "+++ b/src/new.ts",
  "@@ -0,0 +1,3 @@",
  "+export const a = 1;",
  "+export const b = 2;",
  "+export const c = 3;",
  "\\ No newline at end of file",
  "diff --git a/docs/old.md b/docs/old.md",
  "deleted file mode 100644",
  "index 1234567..0000000",
  "--- a/docs/old.md",
  "+++ /dev/null",
  "@@ -1,2 +0,0 @@",
  "-# Old",
  "-gone",
  "diff --git a/assets/logo.png b/assets/logo.png",
  "index 1111111..2222222 100644",
  "Binary files a/assets/logo.png and b/assets/logo.png differ",
  "diff --git a/scripts/run.sh b/scripts/run.sh",
  "old mode 100644",
  "new mode 100755",
  'diff --git "a/sp\\303\\251 ce.txt" "b/sp\\303\\251 ce.txt"',
  "index 3333333..4444444 100644",
  '--- "a/sp\\303\\251 ce.txt"',
  '+++ "b/sp\\303\\251 ce.txt"',
  "@@ -1 +1 @@",
  "-old",
  "+new",
  "-- ",
  "2.43.0",
  "",
);

describe("parseUnifiedDiff: git output", () => {
  const diff = parseUnifiedDiff(FORMAT_PATCH);

  it("reads every file after the commit message, with its status", () => {
    assert.deepEqual(
      diff.files.map((f) => [f.status, f.oldPath, f.newPath]),
      [
        ["renamed", "services/pricing/OldQuote.java", "services/pricing/QuoteService.java"],
        ["added", null, "src/new.ts"],
        ["deleted", "docs/old.md", null],
        ["modified", "assets/logo.png", "assets/logo.png"],
        ["mode_changed", "scripts/run.sh", "scripts/run.sh"],
        ["modified", "sp\u00e9 ce.txt", "sp\u00e9 ce.txt"],
      ],
    );
    assert.deepEqual(diff.malformed, []);
    assert.equal(diff.truncated, false);
    assert.equal(diff.totalFiles, 6);
  });

  it("counts lines per hunk, file and diff, ignoring the no-newline marker", () => {
    const renamed = file(diff, "services/pricing/QuoteService.java");
    assert.deepEqual([renamed.added, renamed.removed], [1, 1]);
    const added = file(diff, "src/new.ts");
    assert.deepEqual([added.added, added.removed], [3, 0]);
    assert.equal(added.hunks.length, 1);
    assert.deepEqual(
      { ...added.hunks[0]!, text: undefined },
      { header: "@@ -0,0 +1,3 @@", oldStart: 0, oldLines: 0, newStart: 1, newLines: 3, added: 3, removed: 0, text: undefined },
    );
    assert.ok(added.hunks[0]!.text.endsWith("+export const c = 3;\n\\ No newline at end of file"));
    assert.ok(added.hunks[0]!.text.startsWith("@@ -0,0 +1,3 @@\n"));
    assert.equal(file(diff, "docs/old.md").path, "docs/old.md");
    assert.deepEqual([diff.totalAdded, diff.totalRemoved], [5, 4]);
  });

  it("marks binaries and keeps file modes", () => {
    assert.equal(file(diff, "assets/logo.png").binary, true);
    assert.equal(file(diff, "assets/logo.png").hunks.length, 0);
    const sh = file(diff, "scripts/run.sh");
    assert.deepEqual([sh.oldMode, sh.newMode, sh.binary], ["100644", "100755", false]);
    assert.equal(file(diff, "src/new.ts").newMode, "100644");
  });

  it("reads a hunk whose counts omit ,n as one line each", () => {
    const h = file(diff, "sp\u00e9 ce.txt").hunks[0]!;
    assert.deepEqual([h.oldStart, h.oldLines, h.newStart, h.newLines, h.added, h.removed], [1, 1, 1, 1, 1, 1]);
  });

  it("parses the same diff with CRLF line endings identically", () => {
    const crlf = parseUnifiedDiff(FORMAT_PATCH.replace(/\n/g, "\r\n"));
    assert.deepEqual(crlf, diff);
  });

  it("reads a pure rename, a copy and a GIT binary patch", () => {
    const d = parseUnifiedDiff(
      lines(
        "diff --git a/web/src/generated/api.ts b/web/src/api.ts",
        "similarity index 100%",
        "rename from web/src/generated/api.ts",
        "rename to web/src/api.ts",
        "diff --git a/a.txt b/a copy.txt",
        "similarity index 100%",
        "copy from a.txt",
        "copy to a copy.txt",
        "diff --git a/img/x.bin b/img/x.bin",
        "new file mode 100644",
        "index 0000000000000000000000000000000000000000..1c1fe6b2dd87fa3a0edcc36b5b30fd7f0e85a4ed",
        "GIT binary patch",
        "literal 12",
        "TcmZ?wbhEHbRA6vmU|;|M3rGOG",
        "",
        "literal 0",
        "HcmV?d00001",
        "",
        "diff --git a/b.txt b/b.txt",
        "--- a/b.txt",
        "+++ b/b.txt",
        "@@ -2,0 +3 @@ section",
        "+x",
      ),
    );
    assert.deepEqual(
      d.files.map((f) => [f.status, f.oldPath, f.newPath, f.binary, f.added]),
      [
        ["renamed", "web/src/generated/api.ts", "web/src/api.ts", false, 0],
        ["copied", "a.txt", "a copy.txt", false, 0],
        ["added", null, "img/x.bin", true, 0],
        ["modified", "b.txt", "b.txt", false, 1],
      ],
    );
    assert.deepEqual(d.malformed, []);
  });

  it("keeps a/ and b/ when git was told --no-prefix, strips mnemonic prefixes", () => {
    const noPrefix = parseUnifiedDiff(lines("diff --git a/x.txt a/x.txt", "--- a/x.txt", "+++ a/x.txt", "@@ -1 +1 @@", "-1", "+2"));
    assert.equal(noPrefix.files[0]!.path, "a/x.txt");
    const mnemonic = parseUnifiedDiff(lines("diff --git i/src/x.ts w/src/x.ts", "--- i/src/x.ts", "+++ w/src/x.ts", "@@ -1 +1 @@", "-1", "+2"));
    assert.equal(mnemonic.files[0]!.path, "src/x.ts");
  });

  it("splits an unquoted header with spaces in the name", () => {
    const d = parseUnifiedDiff(lines("diff --git a/my dir/file b.txt b/my dir/file b.txt", "old mode 100644", "new mode 100755"));
    assert.deepEqual([d.files[0]!.path, d.files[0]!.status], ["my dir/file b.txt", "mode_changed"]);
  });

  it("counts a removed line that looks like a --- header as a removed line", () => {
    const d = parseUnifiedDiff(lines("--- a/notes.md", "+++ b/notes.md", "@@ -1,2 +1,1 @@", "--- not a header", "-+++ neither", "+kept"));
    assert.equal(d.files.length, 1);
    assert.deepEqual([d.files[0]!.added, d.files[0]!.removed], [1, 2]);
  });
});

describe("parseUnifiedDiff: plain diff", () => {
  it("reads diff -u with timestamps and keeps names without a/ b/ as they are", () => {
    const d = parseUnifiedDiff(
      lines(
        "--- src/app.c\t2024-04-01 10:00:00.000000000 +0200",
        "+++ src/app.c\t2024-04-02 11:00:00.000000000 +0200",
        "@@ -1,3 +1,3 @@",
        " int main() {",
        "-  return 1;",
        "+  return 0;",
        " }",
      ),
    );
    assert.deepEqual(d.files.map((f) => [f.path, f.status, f.added, f.removed]), [["src/app.c", "modified", 1, 1]]);
  });

  it("reads diff -ruN: folders are not git prefixes, epoch-dated empty sides are added and deleted files", () => {
    const d = parseUnifiedDiff(
      lines(
        "Only in old/docs: notes.txt",
        "diff -ruN old/src/a.py new/src/a.py",
        "--- old/src/a.py\t2024-04-01 10:00:00.000000000 +0000",
        "+++ new/src/a.py\t2024-04-01 10:05:00.000000000 +0000",
        "@@ -1 +1 @@",
        "-x = 1",
        "+x = 2",
        "diff -ruN old/src/b.py new/src/b.py",
        "--- old/src/b.py\t1970-01-01 00:00:00.000000000 +0000",
        "+++ new/src/b.py\t2024-04-01 10:05:00.000000000 +0000",
        "@@ -0,0 +1,2 @@",
        "+print(1)",
        "+print(2)",
        "diff -ruN old/src/c.py new/src/c.py",
        "--- old/src/c.py\t2024-04-01 10:00:00.000000000 +0000",
        "+++ new/src/c.py\t1969-12-31 19:00:00.000000000 -0500",
        "@@ -1 +0,0 @@",
        "-gone",
        "Binary files old/img.png and new/img.png differ",
      ),
    );
    assert.deepEqual(
      d.files.map((f) => [f.status, f.oldPath, f.newPath, f.binary]),
      [
        ["modified", "old/src/a.py", "new/src/a.py", false],
        ["added", null, "new/src/b.py", false],
        ["deleted", "old/src/c.py", null, false],
        ["modified", "old/img.png", "new/img.png", true],
      ],
    );
    assert.deepEqual(d.malformed, []);
  });

  it("strips a/ and b/ from a bare ---/+++ pair only when both sides carry them", () => {
    const both = parseUnifiedDiff(lines("--- a/x.ts", "+++ b/x.ts", "@@ -1 +1 @@", "-1", "+2"));
    assert.equal(both.files[0]!.path, "x.ts");
    const one = parseUnifiedDiff(lines("--- a/x.ts", "+++ x.ts", "@@ -1 +1 @@", "-1", "+2"));
    assert.deepEqual([one.files[0]!.oldPath, one.files[0]!.newPath], ["a/x.ts", "x.ts"]);
    const created = parseUnifiedDiff(lines("--- /dev/null", "+++ b/new.ts", "@@ -0,0 +1 @@", "+1"));
    assert.deepEqual([created.files[0]!.status, created.files[0]!.path], ["added", "new.ts"]);
  });
});

describe("parseUnifiedDiff: damaged and hostile input", () => {
  it("reports garbage instead of throwing", () => {
    const d = parseUnifiedDiff("hello\nthis is not a diff\n");
    assert.deepEqual(d.files, []);
    assert.equal(d.malformed.length, 1);
    assert.match(d.malformed[0]!.reason, /no diff found/);
    assert.deepEqual(parseUnifiedDiff("").malformed, []);
  });

  it("reports a hunk cut short, a hunk before any file and an unparseable hunk header", () => {
    const d = parseUnifiedDiff(
      lines("@@ -1 +1 @@", "--- a/x", "+++ b/x", "@@ -1,3 +1,3 @@", " a", "-b", "garbage", "@@ nonsense @@", "--- a/y", "+++ b/y", "@@ -1,2 +1,2 @@", " a"),
    );
    assert.deepEqual(
      d.malformed.map((m) => [m.line, m.reason.split(":")[0]]),
      [
        [1, "hunk header before any file header"],
        [7, "hunk cut short"],
        [8, "unparseable hunk header"],
        [12, "hunk cut short at end of input"],
      ],
    );
    assert.deepEqual(d.files.map((f) => [f.path, f.removed]), [["x", 1], ["y", 0]]);
  });

  it("finishes on 2 MB of random text, including diff-like characters", () => {
    const noise = randomText(2 * 1024 * 1024, 'abc -+@\\"/\t\n\r\u00e9');
    const d = parseUnifiedDiff(noise);
    assert.ok(d.malformed.length <= MAX_MALFORMED);
    const headers = parseUnifiedDiff(`diff --git ${noise.replace(/\n/g, " ")}\n@@ -1 +1 @@\n`);
    assert.ok(headers.malformed.some((m) => /header line over/.test(m.reason)));
  });

  it("finishes on long runs that would make a backtracking parser crawl", () => {
    const quoted = `diff --git "${"\\".repeat(100_000)}\n--- ${'"'.repeat(3000)}\n+++ ${"a/".repeat(1500)}\n`;
    assert.doesNotThrow(() => parseUnifiedDiff(quoted));
    const hunk = lines("--- a/x", "+++ b/x", "@@ -1,999999999 +1,999999999 @@", ...Array.from({ length: 30_000 }, () => "+x"));
    const d = parseUnifiedDiff(hunk);
    assert.equal(d.totalAdded, 30_000);
    assert.ok(d.files[0]!.truncated);
    assert.ok(d.truncated);
    assert.ok(d.files[0]!.hunks[0]!.text.length <= MAX_HUNK_TEXT_CHARS_PER_FILE);
  });

  it("caps files and malformed lines and says so, while the totals stay complete", () => {
    const many = Array.from({ length: MAX_DIFF_FILES + 5 }, (_, i) => lines(`--- a/f${i}`, `+++ b/f${i}`, "@@ -1 +1 @@", "-a", "+b")).join("");
    const d = parseUnifiedDiff(many);
    assert.equal(d.files.length, MAX_DIFF_FILES);
    assert.equal(d.totalFiles, MAX_DIFF_FILES + 5);
    assert.equal(d.totalAdded, MAX_DIFF_FILES + 5);
    assert.equal(d.truncated, true);
    assert.equal(diffSummary(d).at(-1), "… 5 more files not shown");
    const bad = parseUnifiedDiff(lines("--- a/x", "+++ b/x", ...Array.from({ length: MAX_MALFORMED + 10 }, () => "@@ bad @@")));
    assert.equal(bad.malformed.length, MAX_MALFORMED);
    assert.equal(bad.truncated, true);
  });
});

describe("diffViolations", () => {
  const FORBIDDEN = [
    { glob: "api/openapi/**", source: "AGENTS.md:12", ruleId: "agents:forbid:1" },
    { glob: "docs/openapi.yaml", source: "task contract" },
    { glob: "web/src/generated/", source: "web/AGENTS.md:3" },
  ];
  const change = (path: string): string => lines(`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, "@@ -1 +1 @@", "-a", "+b");

  it("flags forbidden paths with the glob, source and rule that forbid them", () => {
    const d = parseUnifiedDiff(change("api/openapi/users.yaml") + change("docs/openapi.yaml") + change("docs/openapi.yaml.bak") + change("src/x.ts"));
    const v = diffViolations(d, { forbidden: FORBIDDEN });
    assert.deepEqual(
      v.map((x) => [x.kind, x.path, x.glob, x.source, x.ruleId]),
      [
        ["forbidden_path", "api/openapi/users.yaml", "api/openapi/**", "AGENTS.md:12", "agents:forbid:1"],
        ["forbidden_path", "docs/openapi.yaml", "docs/openapi.yaml", "task contract", undefined],
      ],
    );
    assert.equal(v[0]!.message, "changes api/openapi/users.yaml, which api/openapi/** forbids (AGENTS.md:12)");
    assert.equal("ruleId" in v[1]!, false);
  });

  it("checks both sides of a rename and copy, and deletions", () => {
    const d = parseUnifiedDiff(
      lines(
        "diff --git a/web/src/generated/api.ts b/web/src/api.ts",
        "similarity index 100%",
        "rename from web/src/generated/api.ts",
        "rename to web/src/api.ts",
        "diff --git a/src/spec.yaml b/api/openapi/spec.yaml",
        "similarity index 100%",
        "copy from src/spec.yaml",
        "copy to api/openapi/spec.yaml",
        "diff --git a/docs/openapi.yaml b/docs/openapi.yaml",
        "deleted file mode 100644",
      ),
    );
    const v = diffViolations(d, { forbidden: FORBIDDEN });
    assert.deepEqual(
      v.map((x) => x.message),
      [
        "renames away from web/src/generated/api.ts, which web/src/generated/ forbids (web/AGENTS.md:3)",
        "copies to api/openapi/spec.yaml, which api/openapi/** forbids (AGENTS.md:12)",
        "deletes docs/openapi.yaml, which docs/openapi.yaml forbids (task contract)",
      ],
    );
  });

  it("flags paths outside the allowed globs, on either side of a rename", () => {
    const d = parseUnifiedDiff(
      change("services/pricing/src/Quote.java") +
        change("services/billing/src/Bill.java") +
        lines("diff --git a/services/pricing/A.java b/lib/A.java", "similarity index 100%", "rename from services/pricing/A.java", "rename to lib/A.java"),
    );
    const v = diffViolations(d, { forbidden: [], allowed: ["services/pricing/**", "docs/"] });
    assert.deepEqual(v.map((x) => [x.kind, x.path]), [
      ["outside_allowed_paths", "services/billing/src/Bill.java"],
      ["outside_allowed_paths", "lib/A.java"],
    ]);
    assert.deepEqual(diffViolations(d, { forbidden: [], allowed: [] }), []);
  });

  it("enforces the file and line limits", () => {
    const d = parseUnifiedDiff(change("a.ts") + change("b.ts") + change("c.ts"));
    assert.deepEqual(diffViolations(d, { forbidden: [], maxFilesChanged: 3, maxLinesChanged: 6 }), []);
    assert.deepEqual(
      diffViolations(d, { forbidden: [], maxFilesChanged: 2, maxLinesChanged: 5 }).map((x) => [x.kind, x.message]),
      [
        ["too_many_files", "3 files changed, over the limit of 2"],
        ["too_many_lines", "6 lines changed (+3 −3), over the limit of 5"],
      ],
    );
  });

  it("says when files past the cap could not be checked", () => {
    const many = Array.from({ length: MAX_DIFF_FILES + 1 }, (_, i) => change(`src/f${i}.ts`)).join("") + change("api/openapi/late.yaml");
    const v = diffViolations(parseUnifiedDiff(many), { forbidden: FORBIDDEN });
    assert.deepEqual(v.map((x) => x.kind), ["too_many_files"]);
    assert.match(v[0]!.message, /only the first 2000 were checked/);
  });
});

describe("diffSummary", () => {
  it("prints one compact line per file", () => {
    assert.deepEqual(diffSummary(parseUnifiedDiff(FORMAT_PATCH)), [
      "R services/pricing/OldQuote.java → services/pricing/QuoteService.java (+1 −1)",
      "A src/new.ts (+3 −0)",
      "D docs/old.md (+0 −2)",
      "M assets/logo.png (binary)",
      "M scripts/run.sh (mode 100644 → 100755)",
      "M sp\u00e9 ce.txt (+1 −1)",
    ]);
  });

  it("escapes control characters so a name cannot forge a line", () => {
    const d = parseUnifiedDiff(lines('diff --git "a/x\\nM evil" "b/x\\nM evil"', "old mode 100644", "new mode 100755"));
    assert.equal(d.files[0]!.path, "x\nM evil");
    assert.deepEqual(diffSummary(d), ["M x\\u000aM evil (mode 100644 → 100755)"]);
  });
});

describe("summarizeVerifierLog: tools", () => {
  it("reads Maven surefire (JUnit 5 and JUnit 4), its results section, exit code and frames", () => {
    const log = lines(
      "$ mvn -pl services/pricing test",
      "[INFO] Running com.acme.pricing.QuoteServiceTest",
      "[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! -- in com.acme.pricing.QuoteServiceTest",
      "[ERROR] com.acme.pricing.QuoteServiceTest.shouldQuote -- Time elapsed: 0.01 s <<< FAILURE!",
      "org.opentest4j.AssertionFailedError: expected: <1> but was: <2>",
      "\tat org.junit.jupiter.api.AssertionUtils.fail(AssertionUtils.java:151)",
      "\tat com.acme.pricing.QuoteService.quote(QuoteService.java:12)",
      "\tat com.acme.pricing.QuoteServiceTest.shouldQuote(QuoteServiceTest.java:42)",
      "\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)",
      "testLegacy(com.acme.pricing.LegacyTest)  Time elapsed: 0.002 s  <<< ERROR!",
      "java.lang.NullPointerException: price",
      "\tat com.acme.pricing.Legacy$Inner.run(Legacy.java:7)",
      "[INFO] Results:",
      "[INFO] ",
      "[ERROR] Failures: ",
      "[ERROR]   QuoteServiceTest.shouldQuote:42 expected: <1> but was: <2>",
      "[ERROR] Errors: ",
      "[ERROR]   LegacyTest.testLegacy:7 » NullPointer price",
      "[INFO] ",
      "[ERROR] Tests run: 4, Failures: 1, Errors: 1, Skipped: 0",
      "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project pricing: There are test failures.",
      "Process finished with exit code 1",
    );
    const s = summarizeVerifierLog(log);
    assert.equal(s.command, "mvn -pl services/pricing test");
    assert.equal(s.exitCode, 1);
    assert.deepEqual(s.failures, [
      { test: "com.acme.pricing.QuoteServiceTest.shouldQuote", message: "org.opentest4j.AssertionFailedError: expected: <1> but was: <2>", line: 4 },
      { test: "com.acme.pricing.LegacyTest.testLegacy", message: "java.lang.NullPointerException: price", line: 10 },
    ]);
    assert.deepEqual(
      s.locations.map((l) => [l.path, l.line, l.column, l.logLine]),
      [
        ["com/acme/pricing/QuoteService.java", 12, null, 7],
        ["com/acme/pricing/QuoteServiceTest.java", 42, null, 8],
        ["com/acme/pricing/Legacy.java", 7, null, 12],
      ],
    );
    assert.equal(s.locations[0]!.text, "at com.acme.pricing.QuoteService.quote(QuoteService.java:12)");
    assert.deepEqual([s.errorExcerpt?.startLine, s.errorExcerpt?.endLine], [1, 22]);
    assert.equal(s.lineCount, 22);
    assert.equal(s.truncated, false);
  });

  it("reads a results-only Maven log and a compiler error", () => {
    const results = summarizeVerifierLog(lines("[ERROR] Failures: ", "[ERROR] com.acme.FooTest.shouldX:42 expected:<1> but was:<2>"));
    assert.deepEqual(results.failures, [{ test: "com.acme.FooTest.shouldX", message: "expected:<1> but was:<2>", line: 2 }]);
    const compile = summarizeVerifierLog(
      lines(
        "[INFO] Compiling 12 source files",
        "[ERROR] COMPILATION ERROR : ",
        "[ERROR] /home/ci/repo/services/pricing/src/main/java/com/acme/Foo.java:[12,5] cannot find symbol",
        "  symbol:   variable price",
        "make: *** [Makefile:8: test] Error 2",
      ),
    );
    assert.deepEqual(compile.failures, []);
    assert.deepEqual(compile.locations.map((l) => [l.path, l.line, l.column]), [["/home/ci/repo/services/pricing/src/main/java/com/acme/Foo.java", 12, 5]]);
    assert.equal(compile.exitCode, 2);
    assert.equal(compile.errorExcerpt?.startLine, 1);
  });

  it("keeps a Maven class summary only when no test is named", () => {
    const s = summarizeVerifierLog("[ERROR] Tests run: 2, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 1 s <<< ERROR! - in com.acme.BootTest\n");
    assert.deepEqual(s.failures, [{ test: "com.acme.BootTest", message: "Tests run: 2, Failures: 0, Errors: 1", line: 1 }]);
  });

  it("reads Gradle", () => {
    const s = summarizeVerifierLog(
      lines(
        "> Task :compileJava",
        "> Task :test FAILED",
        "",
        "QuoteTest > rounds half up() FAILED",
        "    org.opentest4j.AssertionFailedError: expected: <1.5> but was: <1.4>",
        "        at app//org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)",
        "        at app//com.acme.QuoteTest.roundsHalfUp(QuoteTest.java:30)",
        "",
        "FAILURE: Build failed with an exception.",
      ),
    );
    assert.equal(s.command, null);
    assert.deepEqual(s.failures, [{ test: "QuoteTest > rounds half up()", message: "org.opentest4j.AssertionFailedError: expected: <1.5> but was: <1.4>", line: 4 }]);
    assert.deepEqual(s.locations.map((l) => l.path), ["com/acme/QuoteTest.java"]);
  });

  it("reads node:test TAP with its YAML error and skips TODO", () => {
    const s = summarizeVerifierLog(
      lines(
        "",
        "> repoctx@0.1.0 test",
        "> node --import tsx --test test/x.test.ts",
        "",
        "TAP version 13",
        "# Subtest: adds",
        "not ok 1 - adds",
        "  ---",
        "  duration_ms: 0.61",
        "  location: '/repo/test/x.test.ts:3:1'",
        "  failureType: 'testCodeFailure'",
        "  error: |-",
        "    Expected values to be strictly equal:",
        "    ",
        "    1 !== 2",
        "  code: 'ERR_ASSERTION'",
        "  stack: |-",
        "    TestContext.<anonymous> (file:///repo/test/x.test.ts:4:10)",
        "    at node:internal/test_runner/test:935:25",
        "  ...",
        "not ok 2 - later # TODO not done",
        "not ok 3 - quoted",
        "  ---",
        "  error: 'boom'",
        "  ...",
      ),
    );
    assert.equal(s.command, "node --import tsx --test test/x.test.ts");
    assert.deepEqual(s.failures, [
      { test: "adds", message: "Expected values to be strictly equal:", line: 7 },
      { test: "quoted", message: "boom", line: 22 },
    ]);
    assert.deepEqual(s.locations.map((l) => [l.path, l.line, l.column]), [["/repo/test/x.test.ts", 3, 1], ["/repo/test/x.test.ts", 4, 10]]);
  });

  it("reads node:test's spec reporter", () => {
    const s = summarizeVerifierLog(lines("✖ failing tests:", "", "test at test/x.test.ts:3:1", "✖ adds (0.61ms)", "  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:"));
    assert.deepEqual(s.failures, [{ test: "adds", message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:", line: 4 }]);
  });

  it("reads jest, merging the list entry with its detail", () => {
    const s = summarizeVerifierLog(
      lines(
        "\u001b[1m\u001b[31mFAIL\u001b[39m\u001b[22m src/sum.test.ts (5.2 s)",
        "  sum",
        "    ✓ adds (2 ms)",
        "    ✕ subtracts (3 ms)",
        "",
        "  ● sum › subtracts",
        "",
        "    expect(received).toBe(expected) // Object.is equality",
        "",
        "    > 5 |   expect(sub(3, 1)).toBe(1);",
        "",
        "      at Object.<anonymous> (src/sum.test.ts:5:21)",
        "      at Promise.then.completed (node_modules/jest-circus/build/utils.js:298:28)",
        "",
        "  ● Console",
      ),
    );
    assert.deepEqual(s.failures, [{ test: "sum › subtracts", message: "expect(received).toBe(expected) // Object.is equality", line: 4 }]);
    assert.deepEqual(s.locations.map((l) => [l.path, l.line, l.column]), [["src/sum.test.ts", 5, 21]]);
    assert.equal(s.errorExcerpt?.startLine, 1);
  });

  it("keeps jest's FAIL file lines when no test is named", () => {
    const s = summarizeVerifierLog(lines("FAIL src/broken.test.ts", "  ● Test suite failed to run", "", "    Cannot find module './missing'"));
    assert.deepEqual(s.failures, [{ test: "src/broken.test.ts", message: null, line: 1 }]);
  });

  it("reads vitest", () => {
    const s = summarizeVerifierLog(
      lines(
        " ❯ src/sum.test.ts (2 tests | 1 failed) 5ms",
        "   × sum > subtracts 3ms",
        "     → expected 2 to be 1 // Object.is equality",
        "",
        " FAIL  src/sum.test.ts > sum > subtracts",
        "AssertionError: expected 2 to be 1 // Object.is equality",
        " ❯ src/sum.test.ts:5:21",
      ),
    );
    assert.deepEqual(s.failures, [{ test: "src/sum.test.ts > sum > subtracts", message: "expected 2 to be 1 // Object.is equality", line: 2 }]);
    assert.deepEqual(s.locations.map((l) => [l.path, l.line, l.column]), [["src/sum.test.ts", 5, 21]]);
  });

  it("reads pytest, anchoring the excerpt on its assertion lines", () => {
    const s = summarizeVerifierLog(
      lines(
        "+ python -m pytest -q",
        "..F",
        "=================================== FAILURES ===================================",
        "___________________________________ test_y ____________________________________",
        "",
        "    def test_y():",
        ">       assert add(1, 1) == 3",
        "E       assert 2 == 3",
        "",
        "tests/test_x.py:5: AssertionError",
        "Traceback (most recent call last):",
        '  File "pkg/calc.py", line 3, in add',
        "=========================== short test summary info ============================",
        "FAILED tests/test_x.py::test_y - assert 2 == 3",
        "ERROR tests/test_db.py - ImportError: no module named db",
        "1 failed, 1 error, 2 passed in 0.03s",
      ),
    );
    assert.equal(s.command, "python -m pytest -q");
    assert.deepEqual(s.failures, [
      { test: "tests/test_x.py::test_y", message: "assert 2 == 3", line: 14 },
      { test: "tests/test_db.py", message: "ImportError: no module named db", line: 15 },
    ]);
    assert.deepEqual(s.locations.map((l) => [l.path, l.line]), [["tests/test_x.py", 5], ["pkg/calc.py", 3]]);
    assert.deepEqual([s.errorExcerpt?.startLine, s.errorExcerpt?.endLine], [3, 16]);
  });

  it("reads go test", () => {
    const s = summarizeVerifierLog(
      lines(
        "--- FAIL: TestAdd (0.00s)",
        "    add_test.go:12: got 2, want 3",
        "    --- FAIL: TestAdd/negative (0.00s)",
        "        add_test.go:20: got -1, want 1",
        "./calc.go:7:2: undefined: helper",
        "FAIL",
        "exit status 1",
        "FAIL\tgithub.com/acme/calc\t0.002s",
      ),
    );
    assert.equal(s.exitCode, 1);
    assert.deepEqual(s.failures, [
      { test: "TestAdd", message: "add_test.go:12: got 2, want 3", line: 1 },
      { test: "TestAdd/negative", message: "add_test.go:20: got -1, want 1", line: 3 },
    ]);
    assert.deepEqual(s.locations.map((l) => [l.path, l.line, l.column]), [["add_test.go", 12, null], ["add_test.go", 20, null], ["calc.go", 7, 2]]);
  });

  it("does not take go -v progress for a message", () => {
    const s = summarizeVerifierLog(lines("=== RUN   TestAdd", "    add_test.go:12: got 2, want 3", "--- FAIL: TestAdd (0.00s)", "=== RUN   TestSub", "--- PASS: TestSub (0.00s)"));
    assert.deepEqual(s.failures, [{ test: "TestAdd", message: null, line: 3 }]);
  });

  it("keeps go's package FAIL line when no test is named", () => {
    const s = summarizeVerifierLog("FAIL\tgithub.com/acme/calc [build failed]\n");
    assert.deepEqual(s.failures.map((f) => f.test), ["github.com/acme/calc [build failed]"]);
  });

  it("reads cargo test and rustc errors", () => {
    const s = summarizeVerifierLog(
      lines(
        "running 2 tests",
        "test tests::it_works ... ok",
        "test tests::it_fails ... FAILED",
        "",
        "failures:",
        "",
        "---- tests::it_fails stdout ----",
        "thread 'tests::it_fails' panicked at src/lib.rs:10:5:",
        "assertion `left == right` failed",
        "error[E0425]: cannot find value `x` in this scope",
        " --> src/main.rs:4:5",
        "test result: FAILED. 1 passed; 1 failed; 0 ignored",
      ),
    );
    assert.deepEqual(s.failures, [{ test: "tests::it_fails", message: "assertion `left == right` failed", line: 3 }]);
    assert.deepEqual(s.locations.map((l) => [l.path, l.line, l.column]), [["src/lib.rs", 10, 5], ["src/main.rs", 4, 5]]);
    assert.equal(s.errorExcerpt?.startLine, 3);
  });

  it("reads TypeScript and JavaScript locations", () => {
    const s = summarizeVerifierLog(
      lines(
        "Running: npx tsc --noEmit",
        "src/x.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.",
        "src/y.ts:3:9 - error TS2304: Cannot find name 'z'.",
        "    at handler (file:///srv/app/dist/server.js:3:9)",
        "    at /srv/app/dist/boot.js:10:2",
        "    at node:internal/process/task_queues:95:5",
        "Listening on example.com:8080 at 12:30:45",
        "error Command failed with exit code 2.",
      ),
    );
    assert.equal(s.command, "npx tsc --noEmit");
    assert.equal(s.exitCode, 2);
    assert.deepEqual(s.locations.map((l) => [l.path, l.line, l.column]), [
      ["src/x.ts", 12, 5],
      ["src/y.ts", 3, 9],
      ["/srv/app/dist/server.js", 3, 9],
      ["/srv/app/dist/boot.js", 10, 2],
    ]);
    assert.equal(s.errorExcerpt?.startLine, 1);
  });

  it("reads exit codes in their usual forms, the last one winning", () => {
    assert.equal(summarizeVerifierLog("exited with code 3\n").exitCode, 3);
    assert.equal(summarizeVerifierLog("##[error]Process completed with exit code 1.\n").exitCode, 1);
    assert.equal(summarizeVerifierLog("make[1]: *** [sub] Error 1\nmake: *** [all] Error 2\n").exitCode, 2);
    assert.equal(summarizeVerifierLog("all good\n").exitCode, null);
  });
});

describe("summarizeVerifierLog: bounds", () => {
  it("has nothing to say about an empty or clean log", () => {
    assert.deepEqual(summarizeVerifierLog(""), { lineCount: 0, command: null, exitCode: null, failures: [], locations: [], errorExcerpt: null, truncated: false });
    const clean = summarizeVerifierLog("$ npm test\nok 1 - adds\n");
    assert.deepEqual([clean.failures, clean.errorExcerpt, clean.command], [[], null, "npm test"]);
  });

  it("caps failures and locations and dedupes locations", () => {
    const many = Array.from({ length: MAX_LOG_FAILURES + 50 }, (_, i) => `--- FAIL: Test${i} (0.00s)\n    a_test.go:${i + 1}: bad\n    a_test.go:1: again\n`).join("");
    const s = summarizeVerifierLog(many);
    assert.equal(s.failures.length, MAX_LOG_FAILURES);
    assert.equal(s.locations.length, MAX_LOG_LOCATIONS);
    assert.equal(new Set(s.locations.map((l) => `${l.path}:${l.line}`)).size, MAX_LOG_LOCATIONS);
    assert.equal(s.truncated, true);
  });

  it("keeps the excerpt to its line budget and clips long lines", () => {
    const log = `${"x\n".repeat(100)}--- FAIL: TestLong (0.00s)\n${"y".repeat(MAX_LOG_LINE_CHARS * 3)}\n${"z\n".repeat(100)}`;
    const s = summarizeVerifierLog(log);
    assert.deepEqual([s.errorExcerpt?.startLine, s.errorExcerpt?.endLine], [96, 96 + EXCERPT_LINES - 1]);
    assert.equal(s.errorExcerpt?.text.split("\n").length, EXCERPT_LINES);
    assert.ok(s.errorExcerpt!.text.includes(`${"y".repeat(MAX_LOG_LINE_CHARS)} …`));
    assert.equal(s.failures[0]!.message, `${"y".repeat(500)} …`);
    assert.equal(s.truncated, true);
  });

  it("shows the last state of a progress line rewritten with \\r", () => {
    const s = summarizeVerifierLog("Downloading 10%\rDownloading 100%\r\n--- FAIL: TestX (0.00s)\n");
    assert.ok(s.errorExcerpt!.text.startsWith("Downloading 100%\n--- FAIL"));
  });

  it("finishes on 2 MB of random text and on long hostile lines", () => {
    const noise = randomText(2 * 1024 * 1024, "at (Foo.java:1) x.ts:1:2 [ERROR] » ✕ ● --- FAIL: not ok . :\n\r\t\u001b[");
    const s = summarizeVerifierLog(noise);
    assert.ok(s.failures.length <= MAX_LOG_FAILURES && s.locations.length <= MAX_LOG_LOCATIONS);
    const hostile = [
      `at ${"a.".repeat(200_000)}`,
      `[ERROR] ${"a.".repeat(200_000)}`,
      `${"a".repeat(400_000)}Error`,
      ` ${"1".repeat(100_000)}`.repeat(3),
      `× ${" ".repeat(400_000)}1ms`,
      `Tests run: 1, Failures: 1, Errors: 0${"<".repeat(400_000)}`,
      `exit ${"exit ".repeat(100_000)}`,
    ].join("\n");
    assert.doesNotThrow(() => summarizeVerifierLog(hostile));
  });
});
