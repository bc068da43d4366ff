import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { isDocPath, isInstructionFile, isMetadataFile, isTestPath, trustLevelFor } from "../src/policy/labels.js";
import { TRUST_LEVELS, type TrustLevel } from "../src/core/evidence.js";

function label(path: string, opts: { generated?: boolean; instructionLike?: boolean } = {}): TrustLevel {
  return trustLevelFor({ path, isGenerated: opts.generated ?? false, hasInstructionLikeText: opts.instructionLike ?? false });
}

function expectLabels(cases: ReadonlyArray<readonly [string, TrustLevel]>, opts: { generated?: boolean; instructionLike?: boolean } = {}): void {
  for (const [path, expected] of cases) {
    assert.equal(label(path, opts), expected, path);
  }
}

describe("trust levels", () => {
  it("lists every level once, most trusted first", () => {
    assert.equal(new Set(TRUST_LEVELS).size, TRUST_LEVELS.length);
    assert.equal(TRUST_LEVELS[0], "platform_policy");
    for (const level of [
      "repo_instructions",
      "repo_metadata",
      "source_code",
      "test_code",
      "generated_code",
      "repo_documentation",
      "repo_documentation_untrusted_instruction",
      "external_task_text",
      "tool_output",
    ]) {
      assert.ok((TRUST_LEVELS as readonly string[]).includes(level), level);
    }
  });
});

describe("trustLevelFor: agent instruction files", () => {
  const cases = [
    ["AGENTS.md", "repo_instructions"],
    ["CLAUDE.md", "repo_instructions"],
    ["packages/api/AGENTS.md", "repo_instructions"],
    ["services/billing/CLAUDE.md", "repo_instructions"],
    [".github/copilot-instructions.md", "repo_instructions"],
    [".agents/AGENTS.md", "repo_instructions"],
  ] as const;

  it("labels instruction files repo_instructions", () => expectLabels(cases));

  it("keeps instruction files as repo_instructions even when generated or instruction-like", () => {
    expectLabels(cases, { generated: true });
    expectLabels(cases, { instructionLike: true });
  });

  it("matches file names exactly", () => {
    assert.equal(isInstructionFile("agents.md"), false);
    assert.equal(isInstructionFile("docs/AGENTS.md.bak"), false);
    assert.equal(isInstructionFile("MY_AGENTS.md"), false);
    assert.equal(isInstructionFile("CLAUDE.txt"), false);
    assert.equal(label("agents.md"), "repo_documentation");
  });
});

describe("trustLevelFor: generated code", () => {
  it("labels generated files generated_code, whatever their kind", () => {
    expectLabels(
      [
        ["src/gen/api_pb.ts", "generated_code"],
        ["internal/mocks/mock_store.go", "generated_code"],
        ["docs/api/reference.md", "generated_code"],
        ["src/__tests__/snapshot.test.ts", "generated_code"],
        ["package.json", "generated_code"],
      ],
      { generated: true },
    );
  });
});

describe("trustLevelFor: documentation", () => {
  const docs = [
    "README.md",
    "README",
    "readme.txt",
    "README.zh-CN.md",
    "CONTRIBUTING.md",
    "CHANGELOG.md",
    "SECURITY.md",
    "LICENSE",
    "LICENSE-MIT",
    "NOTICE",
    "docs/guide.md",
    "docs/architecture/overview.mdx",
    "doc/setup.rst",
    "documentation/intro.adoc",
    "docs/notes.txt",
    "adr/0001-use-sqlite.md",
    "packages/ui/README.md",
    "guide.markdown",
  ];

  it("labels documentation repo_documentation", () => {
    for (const path of docs) {
      assert.equal(isDocPath(path), true, path);
      assert.equal(label(path), "repo_documentation", path);
    }
  });

  it("labels documentation with instruction-like text repo_documentation_untrusted_instruction", () => {
    for (const path of docs) {
      assert.equal(label(path, { instructionLike: true }), "repo_documentation_untrusted_instruction", path);
    }
  });

  it("ignores the instruction-like flag for non-documentation", () => {
    assert.equal(label("src/index.ts", { instructionLike: true }), "source_code");
    assert.equal(label("src/foo.test.ts", { instructionLike: true }), "test_code");
    assert.equal(label("package.json", { instructionLike: true }), "repo_metadata");
  });

  it("does not treat source files named like documents as documentation", () => {
    for (const path of ["src/security.ts", "src/history.ts", "lib/changes.py", "src/license.ts", "pkg/migration.go", "src/readme.go", "app/notice.rb"]) {
      assert.equal(isDocPath(path), false, path);
      assert.equal(label(path), "source_code", path);
    }
  });

  it("does not treat plain text outside doc folders as documentation", () => {
    assert.equal(isDocPath("requirements.txt"), false);
    assert.equal(isDocPath("src/fixtures/words.txt"), false);
  });

  it("prefers documentation over test folders for markdown", () => {
    assert.equal(label("tests/README.md"), "repo_documentation");
  });
});

describe("trustLevelFor: test code", () => {
  const tests = [
    // Java / JVM
    "src/test/java/com/acme/FooTest.java",
    "src/test/java/com/acme/util/Fixtures.java",
    "module/src/test/kotlin/com/acme/BarTest.kt",
    "src/main/java/com/acme/FooTests.java",
    "src/main/java/com/acme/TestFoo.java",
    "src/it/java/com/acme/CheckoutIT.java",
    "core/src/main/java/com/acme/CheckoutIT.java",
    "src/main/groovy/com/acme/FooSpec.groovy",
    // Go
    "pkg/store/store_test.go",
    "internal/testdata/input.json",
    // Python
    "test_models.py",
    "app/test_views.py",
    "app/views_test.py",
    "tests/conftest.py",
    "tests/unit/helpers.py",
    "test/integration/run.py",
    // TypeScript / JavaScript
    "src/foo.test.ts",
    "src/foo.spec.tsx",
    "src/foo.test.mjs",
    "lib/util.spec.cjs",
    "src/__tests__/foo.ts",
    "packages/a/__tests__/deep/bar.js",
    "e2e/login.ts",
    // Ruby, C#, others
    "spec/models/user_spec.rb",
    "app/models/user_spec.rb",
    "Acme.Tests/FooTests.cs",
    "Sources/App/AppTests.swift",
  ];

  it("labels test files test_code", () => {
    for (const path of tests) {
      assert.equal(isTestPath(path), true, path);
      assert.equal(label(path), "test_code", path);
    }
  });

  it("does not mistake ordinary names for tests", () => {
    for (const path of [
      "src/main/java/com/acme/Foo.java",
      "src/main/java/com/acme/TestimonialService.java",
      "src/main/java/it/unimi/dsi/fastutil/Ints.java",
      "src/main/java/com/acme/Contest.java",
      "src/latest.ts",
      "src/attestation.ts",
      "src/testing-library-config.ts",
      "lib/contest.rb",
      "pkg/testutil/assert.go",
      "src/protest.py",
    ]) {
      assert.equal(isTestPath(path), false, path);
    }
  });
});

describe("trustLevelFor: metadata", () => {
  const metadata = [
    "pom.xml",
    "module/pom.xml",
    "package.json",
    "packages/web/package.json",
    "CODEOWNERS",
    ".github/CODEOWNERS",
    "go.mod",
    "go.work",
    "Cargo.toml",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "build.gradle",
    "settings.gradle.kts",
    "tsconfig.json",
    "pnpm-workspace.yaml",
    "Makefile",
    "Gemfile",
    "composer.json",
    "src/App/App.csproj",
    "Acme.sln",
  ];

  it("labels build and ownership files repo_metadata", () => {
    for (const path of metadata) {
      assert.equal(isMetadataFile(path), true, path);
      assert.equal(label(path), "repo_metadata", path);
    }
  });

  it("does not label look-alikes as metadata", () => {
    for (const path of ["package-lock.json", "src/package.ts", "pom.xml.orig", "my-tsconfig.json", "CODEOWNERS.md"]) {
      assert.equal(isMetadataFile(path), false, path);
    }
  });

  it("lets a test folder win over a metadata name", () => {
    assert.equal(label("test/fixtures/repos/java/pom.xml"), "test_code");
  });
});

describe("trustLevelFor: ordinary source", () => {
  it("labels everything else source_code", () => {
    expectLabels([
      ["src/index.ts", "source_code"],
      ["src/main/java/com/acme/Foo.java", "source_code"],
      ["cmd/server/main.go", "source_code"],
      ["app/models.py", "source_code"],
      ["lib/acme.rb", "source_code"],
      ["src/lib.rs", "source_code"],
      [".github/workflows/ci.yml", "source_code"],
      ["Dockerfile", "source_code"],
      ["src/main/java/it/unimi/dsi/fastutil/Ints.java", "source_code"],
      ["src/main/java/com/acme/TestimonialService.java", "source_code"],
      ["src/security.ts", "source_code"],
    ]);
  });
});
