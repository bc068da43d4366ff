import { describe, it } from "node:test";
import assert from "node:assert/strict";
import {
  CODEOWNERS_LOCATIONS,
  compilePattern,
  createOwnershipMatcher,
  decideOwnership,
  isCodeownersPath,
  parseCodeowners,
  readOwnership,
} from "../src/indexer/knowledge/codeowners.js";

function rulesOf(content: string, path = "CODEOWNERS") {
  return parseCodeowners(path, content);
}

function ownersOf(content: string, path: string): string[] {
  return decideOwnership(rulesOf(content).rules, path).owners;
}

/** Asserts which of `paths` a single-rule file owns. */
function expectMatches(pattern: string, cases: ReadonlyArray<readonly [string, boolean]>): void {
  const { rules, warnings } = rulesOf(`${pattern} @o`);
  assert.deepEqual(warnings, [], pattern);
  assert.equal(rules.length, 1, pattern);
  const match = createOwnershipMatcher(rules);
  for (const [path, expected] of cases) {
    assert.equal(!match(path).unowned, expected, `${pattern} vs ${path}`);
  }
}

describe("CODEOWNERS locations", () => {
  it("lists the host search order", () => {
    assert.deepEqual([...CODEOWNERS_LOCATIONS], [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS", ".gitlab/CODEOWNERS"]);
  });

  it("recognises CODEOWNERS paths only at the known locations", () => {
    assert.equal(isCodeownersPath("CODEOWNERS"), true);
    assert.equal(isCodeownersPath(".github/CODEOWNERS"), true);
    assert.equal(isCodeownersPath("./docs/CODEOWNERS"), true);
    assert.equal(isCodeownersPath(".gitlab/CODEOWNERS"), true);
    assert.equal(isCodeownersPath("src/CODEOWNERS"), false);
    assert.equal(isCodeownersPath("codeowners"), false);
    assert.equal(isCodeownersPath("CODEOWNERS.md"), false);
  });

  it(".github/CODEOWNERS beats the root file, which is listed as shadowed", () => {
    const result = readOwnership([
      { path: "docs/CODEOWNERS", content: "* @docs-owner" },
      { path: "CODEOWNERS", content: "* @root-owner\nbad-owner-line team-x" },
      { path: ".github/CODEOWNERS", content: "* @github-owner" },
      { path: "src/CODEOWNERS", content: "* @ignored" },
    ]);
    assert.equal(result.path, ".github/CODEOWNERS");
    assert.deepEqual(result.shadowed, ["CODEOWNERS", "docs/CODEOWNERS"]);
    assert.deepEqual(
      result.rules.map((r) => [r.pattern, r.owners, r.source]),
      [["*", ["@github-owner"], ".github/CODEOWNERS"]],
    );
    // Warnings come from the file in force only.
    assert.deepEqual(result.warnings, []);
  });

  it("falls back through the search order", () => {
    const result = readOwnership([
      { path: ".gitlab/CODEOWNERS", content: "* @gitlab" },
      { path: "docs/CODEOWNERS", content: "* @docs\n" },
    ]);
    assert.equal(result.path, "docs/CODEOWNERS");
    assert.deepEqual(result.shadowed, [".gitlab/CODEOWNERS"]);
    assert.deepEqual(result.rules.map((r) => r.owners), [["@docs"]]);
  });

  it("returns an empty result without a CODEOWNERS file", () => {
    assert.deepEqual(readOwnership([]), { path: null, shadowed: [], rules: [], warnings: [] });
    assert.deepEqual(readOwnership([{ path: "README.md", content: "* @x" }]), {
      path: null,
      shadowed: [],
      rules: [],
      warnings: [],
    });
  });

  it("is deterministic whatever the input order", () => {
    const files = [
      { path: "CODEOWNERS", content: "* @a" },
      { path: ".gitlab/CODEOWNERS", content: "* @b" },
      { path: "docs/CODEOWNERS", content: "* @c" },
    ];
    const forward = readOwnership(files);
    const backward = readOwnership([...files].reverse());
    assert.deepEqual(forward, backward);
    assert.equal(forward.path, "CODEOWNERS");
    assert.deepEqual(forward.shadowed, [".gitlab/CODEOWNERS", "docs/CODEOWNERS"]);
  });
});

describe("parseCodeowners", () => {
  it("reads rules with ordinals, lines and source, skipping blanks and comments", () => {
    const { rules, warnings } = rulesOf(
      ["# top comment", "", "*.js    @js-owner   @acme/web", "   # indented comment", "/docs/ docs@example.com"].join("\n"),
      ".github/CODEOWNERS",
    );
    assert.deepEqual(warnings, []);
    assert.deepEqual(rules, [
      {
        ordinal: 0,
        pattern: "*.js",
        owners: ["@js-owner", "@acme/web"],
        section: null,
        optional: false,
        source: ".github/CODEOWNERS",
        line: 3,
      },
      {
        ordinal: 1,
        pattern: "/docs/",
        owners: ["docs@example.com"],
        section: null,
        optional: false,
        source: ".github/CODEOWNERS",
        line: 5,
      },
    ]);
  });

  it("accepts users, teams, GitLab subgroups and email owners", () => {
    const { rules, warnings } = rulesOf("* @user @org/team @group/sub/deeper jane.doe+ci@example.co.uk");
    assert.deepEqual(warnings, []);
    assert.deepEqual(rules[0]?.owners, ["@user", "@org/team", "@group/sub/deeper", "jane.doe+ci@example.co.uk"]);
    assert.deepEqual(ownersOf("*.md jane@example.com", "README.md"), ["jane@example.com"]);
  });

  it("warns about an invalid owner token with its line number and keeps the valid owners", () => {
    const { rules, warnings } = rulesOf("# header\n*.js @good team-x @acme/web\n");
    assert.deepEqual(rules[0]?.owners, ["@good", "@acme/web"]);
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.line, 2);
    assert.equal(warnings[0]?.path, "CODEOWNERS");
    assert.match(warnings[0]?.reason ?? "", /team-x/);
  });

  it("skips an entry whose owners are all invalid instead of reading it as unowned", () => {
    const { rules, warnings } = rulesOf("* @all\ndocs/ team-x");
    assert.deepEqual(rules.map((r) => r.pattern), ["*"]);
    assert.deepEqual(warnings.map((w) => w.line), [2, 2]);
    assert.deepEqual(decideOwnership(rules, "docs/a.md").owners, ["@all"]);
  });

  it("strips trailing comments after whitespace but not a # inside a token", () => {
    const { rules, warnings } = rulesOf("src/ @a @b # owned by a and b\nfile#1.txt @c @c#x # comment");
    assert.deepEqual(rules[0]?.owners, ["@a", "@b"]);
    assert.equal(rules[1]?.pattern, "file#1.txt");
    assert.deepEqual(rules[1]?.owners, ["@c"]);
    // "@c#x" is not a valid owner token.
    assert.deepEqual(warnings.map((w) => w.line), [2]);
    assert.match(warnings[0]?.reason ?? "", /@c#x/);
  });

  it("treats \\# as a literal leading hash", () => {
    const { rules, warnings } = rulesOf("\\#notes.md @hash-owner\n#comment.md @nobody");
    assert.deepEqual(warnings, []);
    assert.equal(rules.length, 1);
    assert.equal(rules[0]?.pattern, "\\#notes.md");
    assert.deepEqual(decideOwnership(rules, "#notes.md").owners, ["@hash-owner"]);
    assert.deepEqual(decideOwnership(rules, "docs/#notes.md").owners, ["@hash-owner"]);
    assert.equal(decideOwnership(rules, "comment.md").unowned, true);
  });

  it("keeps escaped spaces in patterns", () => {
    const { rules, warnings } = rulesOf("/My\\ Documents/ @docs\nread\\ me.txt @reader");
    assert.deepEqual(warnings, []);
    assert.deepEqual(rules.map((r) => [r.pattern, r.owners]), [
      ["/My\\ Documents/", ["@docs"]],
      ["read\\ me.txt", ["@reader"]],
    ]);
    assert.deepEqual(decideOwnership(rules, "My Documents/plan.txt").owners, ["@docs"]);
    assert.deepEqual(decideOwnership(rules, "x/read me.txt").owners, ["@reader"]);
    assert.equal(decideOwnership(rules, "My/plan.txt").unowned, true);
  });

  it("warns about negation and character ranges and skips those entries", () => {
    const { rules, warnings } = rulesOf(["* @all", "!docs/ @x", "*.[ch] @c-team", "src/[a-z]*.ts @y", "ok.txt @z"].join("\n"));
    assert.deepEqual(rules.map((r) => r.pattern), ["*", "ok.txt"]);
    assert.deepEqual(rules.map((r) => r.ordinal), [0, 1]);
    assert.deepEqual(warnings.map((w) => w.line), [2, 3, 4]);
    assert.match(warnings[0]?.reason ?? "", /negation/);
    assert.match(warnings[1]?.reason ?? "", /character range/);
    assert.match(warnings[2]?.reason ?? "", /character range/);
    assert.deepEqual(decideOwnership(rules, "main.c").owners, ["@all"]);
  });

  it("keeps a pattern without owners as an explicitly unowned rule", () => {
    const { rules, warnings } = rulesOf("* @all\n/apps/ @octocat\n/apps/github");
    assert.deepEqual(warnings, []);
    assert.deepEqual(rules[2]?.owners, []);
    const github = decideOwnership(rules, "apps/github/main.go");
    assert.equal(github.unowned, true);
    assert.equal(github.confidence, "none");
    assert.deepEqual(github.owners, []);
    assert.equal(github.rules[0]?.line, 3);
    assert.deepEqual(decideOwnership(rules, "apps/other/main.go").owners, ["@octocat"]);
  });

  it("handles CRLF line endings and a byte-order mark", () => {
    const { rules, warnings } = rulesOf("\uFEFF* @a\r\n# c\r\ndocs/ @b\r\n");
    assert.deepEqual(warnings, []);
    assert.deepEqual(rules.map((r) => [r.pattern, r.line]), [
      ["*", 1],
      ["docs/", 3],
    ]);
  });
});

describe("pattern semantics", () => {
  it("last matching rule wins", () => {
    const content = ["* @acme/all", "services/pricing/ @acme/pricing", "services/pricing/**/*.sql @acme/dba"].join("\n");
    const { rules } = rulesOf(content);
    const sql = decideOwnership(rules, "services/pricing/db/migrations/V1__init.sql");
    assert.deepEqual(sql.owners, ["@acme/dba"]);
    assert.equal(sql.rules.length, 1);
    assert.equal(sql.rules[0]?.pattern, "services/pricing/**/*.sql");
    assert.deepEqual(decideOwnership(rules, "services/pricing/src/Price.java").owners, ["@acme/pricing"]);
    assert.deepEqual(decideOwnership(rules, "services/billing/src/Bill.java").owners, ["@acme/all"]);
    // `**` between segments also matches zero folders.
    assert.deepEqual(decideOwnership(rules, "services/pricing/schema.sql").owners, ["@acme/dba"]);
  });

  it("a pattern without a slash matches at any depth", () => {
    expectMatches("*.js", [
      ["index.js", true],
      ["src/a/b/c.js", true],
      ["src/c.ts", false],
    ]);
    expectMatches("logs", [
      ["logs", true],
      ["logs/today.txt", true],
      ["build/logs/today.txt", true],
      ["build/logsx/today.txt", false],
      ["blogs/x", false],
    ]);
  });

  it("a leading slash or a slash in the middle anchors at the root", () => {
    expectMatches("/build/logs/", [
      ["build/logs/x.log", true],
      ["build/logs/deep/x.log", true],
      ["src/build/logs/x.log", false],
    ]);
    expectMatches("docs/build-app", [
      ["docs/build-app", true],
      ["docs/build-app/troubleshooting.md", true],
      ["src/docs/build-app/x.md", false],
    ]);
    expectMatches("/README.md", [
      ["README.md", true],
      ["docs/README.md", false],
    ]);
    expectMatches("README.md", [
      ["README.md", true],
      ["docs/README.md", true],
    ]);
  });

  it("a trailing slash matches a directory and everything beneath it, at any depth when unanchored", () => {
    expectMatches("apps/", [
      ["apps/a.ts", true],
      ["apps/x/y/z.ts", true],
      ["packages/apps/a.ts", true],
      ["apps", false],
      ["apps.ts", false],
    ]);
  });

  it("a directory named without a trailing slash owns everything beneath it", () => {
    expectMatches("/docs", [
      ["docs/a/b.md", true],
      ["docs/index.md", true],
      ["docs", true],
      ["docsite/index.md", false],
      ["src/docs/a.md", false],
    ]);
  });

  it("docs/* owns direct children only", () => {
    expectMatches("docs/*", [
      ["docs/getting-started.md", true],
      ["docs/a/b.md", false],
      ["src/docs/a.md", false],
    ]);
    expectMatches("/*", [
      ["README.md", true],
      ["src/index.ts", false],
    ]);
  });

  it("* stays within a segment and ? matches one non-slash character", () => {
    expectMatches("src/*.ts", [
      ["src/a.ts", true],
      ["src/a/b.ts", false],
    ]);
    expectMatches("v?.txt", [
      ["v1.txt", true],
      ["deep/v2.txt", true],
      ["v10.txt", false],
      ["v.txt", false],
    ]);
    expectMatches("a?b", [["a/b", false]]);
  });

  it("supports the ** forms", () => {
    expectMatches("**/logs", [
      ["logs/x.log", true],
      ["build/logs/x.log", true],
      ["a/b/logs", true],
      ["a/b/logsx", false],
    ]);
    expectMatches("docs/**", [
      ["docs/a.md", true],
      ["docs/a/b/c.md", true],
      ["src/docs/a.md", false],
    ]);
    expectMatches("a/**/b", [
      ["a/b", true],
      ["a/x/b", true],
      ["a/x/y/b/c.txt", true],
      ["x/a/b", false],
      ["a/xb", false],
    ]);
    expectMatches("**/*.test.ts", [
      ["x.test.ts", true],
      ["src/deep/x.test.ts", true],
      ["src/x.ts", false],
    ]);
  });

  it("is case-sensitive", () => {
    expectMatches("/Docs/", [
      ["Docs/a.md", true],
      ["docs/a.md", false],
    ]);
    expectMatches("*.MD", [["readme.md", false]]);
  });

  it("escapes regular-expression characters in patterns", () => {
    expectMatches("a+b(1).txt", [
      ["a+b(1).txt", true],
      ["aab(1).txt", false],
      ["a+b(1)xtxt", false],
    ]);
  });

  it("flags catch-all patterns", () => {
    for (const p of ["*", "**", "/**", "**/*", "/**/*", "/"]) assert.equal(compilePattern(p).catchAll, true, p);
    for (const p of ["/*", "*.js", "docs/", "*/", "**/", "docs/**", "**/logs"]) assert.equal(compilePattern(p).catchAll, false, p);
  });
});

describe("GitLab sections", () => {
  const gitlab = [
    "* @default-owner",
    "",
    "[Documentation] @docs-team",
    "docs/",
    "*.md @tech-writer",
    "",
    "[Database][2] @dba-team",
    "*.sql",
    "db/migrations/ @migration-owner",
    "",
    "^[Frontend] @fe-reviewers",
    "*.tsx",
    "",
    "[documentation]",
    "guides/ @guide-writer",
  ].join("\n");

  it("parses headers, default owners, approvals, optional sections and merged repeats", () => {
    const { rules, warnings } = rulesOf(gitlab, ".gitlab/CODEOWNERS");
    assert.deepEqual(warnings, []);
    assert.deepEqual(
      rules.map((r) => [r.pattern, r.section, r.optional, r.owners, r.approvals ?? null, r.inheritedOwners ?? false]),
      [
        ["*", null, false, ["@default-owner"], null, false],
        ["docs/", "Documentation", false, ["@docs-team"], null, true],
        ["*.md", "Documentation", false, ["@tech-writer"], null, false],
        ["*.sql", "Database", false, ["@dba-team"], 2, true],
        ["db/migrations/", "Database", false, ["@migration-owner"], 2, false],
        ["*.tsx", "Frontend", true, ["@fe-reviewers"], null, true],
        // The repeated header merges into the first spelling; it has no default owners of its own.
        ["guides/", "Documentation", false, ["@guide-writer"], null, false],
      ],
    );
  });

  it("applies the deciding rule of each section and combines owners in section order", () => {
    const { rules } = rulesOf(gitlab);
    const readme = decideOwnership(rules, "docs/README.md");
    assert.deepEqual(readme.owners, ["@default-owner", "@tech-writer"]);
    assert.deepEqual(readme.rules.map((r) => [r.section, r.pattern]), [
      [null, "*"],
      ["Documentation", "*.md"],
    ]);
    assert.equal(readme.confidence, "high");

    const sqlInDocs = decideOwnership(rules, "docs/examples/query.sql");
    assert.deepEqual(sqlInDocs.owners, ["@default-owner", "@docs-team", "@dba-team"]);

    const migration = decideOwnership(rules, "db/migrations/001.sql");
    assert.deepEqual(migration.owners, ["@default-owner", "@migration-owner"]);

    const guide = decideOwnership(rules, "guides/setup.txt");
    assert.deepEqual(guide.owners, ["@default-owner", "@guide-writer"]);
  });

  it("reports owners of optional sections as reviewers", () => {
    const { rules } = rulesOf(gitlab);
    const component = decideOwnership(rules, "web/App.tsx");
    assert.deepEqual(component.owners, ["@default-owner"]);
    assert.deepEqual(component.reviewers, ["@fe-reviewers"]);
    assert.deepEqual(component.rules.map((r) => r.section), [null, "Frontend"]);
  });

  it("reports a path owned only by an optional section as owned through reviewers", () => {
    const { rules } = rulesOf("^[Frontend] @fe\n*.tsx");
    const d = decideOwnership(rules, "App.tsx");
    assert.deepEqual(d.owners, []);
    assert.deepEqual(d.reviewers, ["@fe"]);
    assert.equal(d.unowned, false);
    assert.equal(d.confidence, "high");
  });

  it("does not repeat a required owner among the reviewers", () => {
    const { rules } = rulesOf("*.tsx @fe\n^[Frontend]\n*.tsx @fe @other");
    const d = decideOwnership(rules, "App.tsx");
    assert.deepEqual(d.owners, ["@fe"]);
    assert.deepEqual(d.reviewers, ["@other"]);
  });

  it("warns about a malformed header with its line number", () => {
    const { rules, warnings } = rulesOf("* @a\n[Unclosed @b\n[] @c\n[Ok][x]\ndocs/ @d");
    assert.deepEqual(warnings.map((w) => w.line), [2, 3, 4]);
    for (const w of warnings) assert.match(w.reason, /section header/);
    // Entries after a malformed header stay in the current section.
    assert.deepEqual(rules.map((r) => [r.pattern, r.section]), [
      ["*", null],
      ["docs/", null],
    ]);
  });

  it("warns about invalid default owners on a header", () => {
    const { rules, warnings } = rulesOf("[Docs] @ok nope\ndocs/");
    assert.deepEqual(rules[0]?.owners, ["@ok"]);
    assert.deepEqual(warnings.map((w) => w.line), [1]);
    assert.match(warnings[0]?.reason ?? "", /nope/);
  });
});

describe("decideOwnership", () => {
  it("normalises leading ./ and /", () => {
    const { rules } = rulesOf("/src/ @src");
    assert.equal(decideOwnership(rules, "./src/a.ts").path, "src/a.ts");
    assert.deepEqual(decideOwnership(rules, "./src/a.ts").owners, ["@src"]);
    assert.deepEqual(decideOwnership(rules, "/src/a.ts").owners, ["@src"]);
  });

  it("gives high, medium and none confidence", () => {
    const { rules } = rulesOf("* @acme/all\n/src/ @acme/src\n/vendor/");
    const specific = decideOwnership(rules, "src/a.ts");
    assert.equal(specific.confidence, "high");
    assert.equal(specific.unowned, false);

    const catchAll = decideOwnership(rules, "README.md");
    assert.equal(catchAll.confidence, "medium");
    assert.deepEqual(catchAll.owners, ["@acme/all"]);

    const explicit = decideOwnership(rules, "vendor/lib.js");
    assert.equal(explicit.confidence, "none");
    assert.equal(explicit.unowned, true);

    const nothing = decideOwnership(rulesOf("/src/ @acme/src").rules, "README.md");
    assert.deepEqual(nothing, { path: "README.md", owners: [], reviewers: [], rules: [], confidence: "none", unowned: true });

    for (const pattern of ["**", "/**"]) {
      assert.equal(decideOwnership(rulesOf(`${pattern} @x`).rules, "a/b/c.txt").confidence, "medium", pattern);
    }
    // `/*` only matches root files: it is specific, not a catch-all.
    assert.equal(decideOwnership(rulesOf("/* @x").rules, "README.md").confidence, "high");
  });

  it("takes confidence from the rules that supplied owners", () => {
    const { rules } = rulesOf("* @all\n[Vendored]\n/vendor/");
    const d = decideOwnership(rules, "vendor/x.js");
    assert.deepEqual(d.owners, ["@all"]);
    assert.equal(d.rules.length, 2);
    assert.equal(d.confidence, "medium");
    assert.equal(d.unowned, false);
  });

  it("dedupes owners case-insensitively, keeping the first spelling", () => {
    const { rules } = rulesOf("* @Acme/Web\n[Extra]\n* @acme/web @other");
    assert.deepEqual(decideOwnership(rules, "x").owners, ["@Acme/Web", "@other"]);
  });

  it("does not depend on the order rules are given in", () => {
    const { rules } = rulesOf("* @all\nsrc/ @src\nsrc/*.sql @dba");
    const shuffled = [rules[2], rules[0], rules[1]].filter((r) => r !== undefined);
    assert.deepEqual(decideOwnership(shuffled, "src/a.sql"), decideOwnership(rules, "src/a.sql"));
    assert.deepEqual(decideOwnership(shuffled, "src/a.sql").owners, ["@dba"]);
  });

  it("the compiled matcher agrees with decideOwnership", () => {
    const content = [
      "* @acme/all",
      "services/pricing/ @acme/pricing",
      "services/pricing/**/*.sql @acme/dba",
      "docs/* @docs",
      "/vendor/",
      "[Security] @sec",
      "**/auth/",
      "^[Frontend] @fe",
      "*.tsx",
    ].join("\n");
    const { rules } = rulesOf(content);
    const match = createOwnershipMatcher(rules);
    const paths = [
      "README.md",
      "services/pricing/db/x.sql",
      "services/pricing/src/P.java",
      "docs/a.md",
      "docs/a/b.md",
      "vendor/lib.js",
      "src/auth/login.ts",
      "web/auth/Login.tsx",
      "./docs/a.md",
      "/vendor/x",
    ];
    for (const path of paths) assert.deepEqual(match(path), decideOwnership(rules, path), path);
    assert.deepEqual(match("web/auth/Login.tsx").owners, ["@acme/all", "@sec"]);
    assert.deepEqual(match("web/auth/Login.tsx").reviewers, ["@fe"]);
  });
});
