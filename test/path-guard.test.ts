import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  MAX_PATH_LENGTH,
  normalizeRepoPath,
  resolveInsideRoot,
  type GuardResult,
  type NormalizeResult,
  type PathRejection,
} from "../src/policy/path-guard.js";

const MAX_ECHO = 200;

function expectOk(input: string, expected: string): void {
  const r = normalizeRepoPath(input);
  assert.deepEqual(r, { ok: true, relPath: expected }, `input ${JSON.stringify(input)}`);
}

function expectReject(r: NormalizeResult | GuardResult, reason: PathRejection, label: string): void {
  assert.equal(r.ok, false, `${label}: expected rejection ${reason}, got ${JSON.stringify(r)}`);
  if (!r.ok) {
    assert.equal(r.reason, reason, `${label}: message was ${r.message}`);
    assert.equal(typeof r.message, "string");
    assert.ok(r.message.length > 0, `${label}: empty message`);
  }
}

describe("normalizeRepoPath: accepted paths", () => {
  const cases: Array<[string, string]> = [
    ["src/index.ts", "src/index.ts"],
    ["README.md", "README.md"],
    [".env", ".env"],
    [".env.local", ".env.local"],
    [".github/workflows/ci.yml", ".github/workflows/ci.yml"],
    [".gitignore", ".gitignore"],
    ["a..b/c", "a..b/c"],
    ["..a/b", "..a/b"],
    ["a/b..", "a/b.."],
    ["a/..b", "a/..b"],
    ["a/b../c", "a/b../c"],
    ["...", "..."],
    ["..../x", "..../x"],
    ["a/.../b", "a/.../b"],
    ["./src/index.ts", "src/index.ts"],
    ["././src", "src"],
    ["src/./index.ts", "src/index.ts"],
    ["src/././index.ts", "src/index.ts"],
    ["src//index.ts", "src/index.ts"],
    ["src///deep////file.ts", "src/deep/file.ts"],
    ["src/", "src"],
    ["src///", "src"],
    ["src/.", "src"],
    ["src\\index.ts", "src/index.ts"],
    [".\\src\\main\\App.java", "src/main/App.java"],
    ["src\\\\index.ts", "src/index.ts"],
    ["mixed/sep\\arators/x", "mixed/sep/arators/x"],
    ["docs/日本語.md", "docs/日本語.md"],
    ["emoji/😀.txt", "emoji/😀.txt"],
    ["café/naïve.md", "café/naïve.md"],
    ["Ελληνικά/файл.txt", "Ελληνικά/файл.txt"],
    ["a b/c d.txt", "a b/c d.txt"],
    ["file with %20 space", "file with %20 space"],
    ["100%.txt", "100%.txt"],
    ["%", "%"],
    ["%zz/%g1/%", "%zz/%g1/%"],
    ["%2", "%2"],
    ["a/%2e/b", "a/%2e/b"],
    ["a/~b", "a/~b"],
    ["a~", "a~"],
    ["x~/y", "x~/y"],
    ["C", "C"],
    ["ab:c", "ab:c"],
    ["a/C:/b", "a/C:/b"],
    ["node_modules/.bin/tsc", "node_modules/.bin/tsc"],
    ["src/[id]/page.tsx", "src/[id]/page.tsx"],
    ["src/(group)/layout.tsx", "src/(group)/layout.tsx"],
    ["file.with.many.dots.ts", "file.with.many.dots.ts"],
    [" leading-space.txt", " leading-space.txt"],
    ["trailing-space.txt ", "trailing-space.txt "],
  ];
  for (const [input, expected] of cases) {
    it(`accepts ${JSON.stringify(input)} as ${JSON.stringify(expected)}`, () => expectOk(input, expected));
  }

  it("accepts a path of exactly the maximum length", () => {
    const input = "a".repeat(MAX_PATH_LENGTH);
    expectOk(input, input);
  });

  it("uses a 1024-character limit", () => {
    assert.equal(MAX_PATH_LENGTH, 1024);
  });

  it("is idempotent on its own output", () => {
    for (const [input] of cases) {
      const first = normalizeRepoPath(input);
      assert.ok(first.ok);
      if (first.ok) assert.deepEqual(normalizeRepoPath(first.relPath), first, `input ${JSON.stringify(input)}`);
    }
  });

  it("never returns a leading ./, a backslash, a repeated slash or a trailing slash", () => {
    for (const [input] of cases) {
      const r = normalizeRepoPath(input);
      assert.ok(r.ok);
      if (!r.ok) continue;
      assert.ok(!r.relPath.startsWith("./"), r.relPath);
      assert.ok(!r.relPath.startsWith("/"), r.relPath);
      assert.ok(!r.relPath.includes("\\"), r.relPath);
      assert.ok(!r.relPath.includes("//"), r.relPath);
      assert.ok(!r.relPath.endsWith("/"), r.relPath);
      assert.ok(!r.relPath.split("/").includes("."), r.relPath);
    }
  });
});

describe("normalizeRepoPath: rejections", () => {
  const cases: Array<[PathRejection, string[]]> = [
    ["empty_path", ["", " ", "   ", "\t", " \n ", "\r\n", "\u00a0", ".", "./", "././", ".//.", "./\\", "./.\\.\\"]],
    [
      "absolute_path",
      [
        "/",
        "/etc/passwd",
        "//etc/passwd",
        "/home/user/repo/src/index.ts",
        "\\",
        "\\windows\\system32",
        "C:",
        "C:\\",
        "C:/",
        "c:\\Users\\me\\.ssh\\id_rsa",
        "C:foo.txt",
        "z:/x",
        "\\\\server\\share\\file",
        "//server/share/file",
        "\\\\?\\C:\\Windows",
        "~",
        "~/",
        "~/.ssh/id_rsa",
        "~root/.bashrc",
        "~user",
        "file:///etc/passwd",
        "https://example.com/x",
        "%2fetc%2fpasswd",
        "%2Fetc/passwd",
        "%5cwindows",
        "%7e/.ssh",
        "%252fetc%252fpasswd",
        "/../etc/passwd",
      ],
    ],
    [
      "traversal",
      [
        "..",
        "../",
        "..\\",
        "../etc/passwd",
        "../../../../etc/shadow",
        "a/../b",
        "a/b/..",
        "a/..",
        "./../x",
        "a//../b",
        "a/./../b",
        "..\\x",
        "a\\..\\..\\b",
        "src/../../outside",
        "%2e%2e/x",
        "%2E%2E/x",
        "%2e%2E/x",
        "..%2fetc",
        "..%2Fetc/passwd",
        "%2e%2e%2fetc",
        "..%5cetc",
        "%2e%2e%5cetc",
        ".%2e/x",
        "%2e./x",
        "a/%2e%2e",
        "%252e%252e/x",
        "%25252e%25252e/x",
        "a/.. /b",
        "a/ ../b",
        " ..",
      ],
    ],
    [
      "invalid_characters",
      [
        "\u0000",
        "a\u0000b",
        "src/index.ts\u0000.png",
        "a\nb",
        "a\rb",
        "a\tb",
        "a\u0001b",
        "a\u001bb",
        "a\u001fb",
        "a\u007fb",
        "a\u0085b",
        "a\u009fb",
        "%00",
        "a%00.txt",
        "a%0a",
        "a%0D%0Ab",
        "%2500",
      ],
    ],
    ["too_long", ["a".repeat(MAX_PATH_LENGTH + 1), "a/".repeat(600), "x".repeat(100_000)]],
  ];

  for (const [reason, inputs] of cases) {
    for (const input of inputs) {
      const label = JSON.stringify(input.length > 40 ? `${input.slice(0, 40)}…(${input.length})` : input);
      it(`rejects ${label} as ${reason}`, () => expectReject(normalizeRepoPath(input), reason, label));
    }
  }

  it("checks length before anything else", () => {
    expectReject(normalizeRepoPath(`../${"a".repeat(2000)}`), "too_long", "long traversal");
    expectReject(normalizeRepoPath(`/${"a".repeat(2000)}`), "too_long", "long absolute");
  });

  it("checks control characters before absoluteness and traversal", () => {
    expectReject(normalizeRepoPath("/etc/\u0000passwd"), "invalid_characters", "absolute with NUL");
    expectReject(normalizeRepoPath("../\u0000"), "invalid_characters", "traversal with NUL");
  });

  it("checks absoluteness before traversal", () => {
    expectReject(normalizeRepoPath("/../etc"), "absolute_path", "absolute traversal");
    expectReject(normalizeRepoPath("C:\\..\\x"), "absolute_path", "drive traversal");
  });

  it("does not throw on malformed percent escapes", () => {
    for (const input of ["%", "%%", "%E0%A4%A", "%uD800", "a%2", "%ZZ", "%%2e%2e"]) {
      assert.doesNotThrow(() => normalizeRepoPath(input), input);
    }
  });

  it("echoes at most 200 characters of the input in messages", () => {
    const long = `${"b".repeat(500)}/${"Q".repeat(600)}`;
    const r = normalizeRepoPath(long);
    expectReject(r, "too_long", "long");
    if (!r.ok) {
      assert.ok(r.message.includes("b".repeat(MAX_ECHO)), "echo keeps the first 200 characters");
      assert.ok(!r.message.includes("b".repeat(MAX_ECHO + 1)), "echo is truncated to 200 characters");
      assert.ok(!r.message.includes("Q"), "echo does not reach the rest");
      assert.ok(r.message.length < MAX_ECHO + 150, `message too long: ${r.message.length}`);
    }
  });

  it("echoes traversal input, truncated", () => {
    const r = normalizeRepoPath(`../${"d".repeat(900)}`);
    expectReject(r, "traversal", "long traversal");
    if (!r.ok) {
      assert.ok(r.message.includes("../ddd"));
      assert.ok(!r.message.includes("d".repeat(MAX_ECHO)));
    }
  });

  it("does not echo absolute paths", () => {
    for (const input of ["/etc/passwd", "C:\\Users\\me\\secret", "~/.ssh/id_rsa", "\\\\server\\share"]) {
      const r = normalizeRepoPath(input);
      expectReject(r, "absolute_path", input);
      if (!r.ok) {
        assert.ok(!r.message.includes("passwd") && !r.message.includes("Users") && !r.message.includes("id_rsa"), r.message);
        assert.ok(!r.message.includes("server"), r.message);
      }
    }
  });

  it("escapes control characters when echoing", () => {
    const r = normalizeRepoPath("bad\u0000name\nx");
    expectReject(r, "invalid_characters", "nul");
    if (!r.ok) {
      assert.ok(!r.message.includes("\u0000"), "raw NUL leaked into message");
      assert.ok(!r.message.includes("\n"), "raw newline leaked into message");
      assert.ok(r.message.includes("\\u0000"), r.message);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// resolveInsideRoot against a real directory tree with symlinks.

const symlinksSupported = process.platform !== "win32";

describe("resolveInsideRoot", { skip: !symlinksSupported && "symlinks need privileges on Windows" }, () => {
  let base = "";
  let repo = "";
  let realRepo = "";

  before(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "repoctx-guard-")));
    repo = path.join(base, "repo");
    realRepo = repo;
    const outside = path.join(base, "outside");
    const evil = path.join(base, "repo-evil");
    await mkdir(path.join(repo, "src", "deep"), { recursive: true });
    await mkdir(path.join(repo, "docs"), { recursive: true });
    await mkdir(path.join(repo, "nested"), { recursive: true });
    await mkdir(path.join(outside, "dir"), { recursive: true });
    await mkdir(evil, { recursive: true });
    await writeFile(path.join(repo, "src", "a.ts"), "export const a = 1;\n");
    await writeFile(path.join(repo, "src", "deep", "b.ts"), "export const b = 2;\n");
    await writeFile(path.join(repo, ".env"), "X=1\n");
    await writeFile(path.join(repo, "docs", "日本語.md"), "# doc\n");
    await writeFile(path.join(repo, "a..b"), "dots\n");
    await writeFile(path.join(outside, "secret.txt"), "outside secret\n");
    await writeFile(path.join(outside, "dir", "x.txt"), "outside x\n");
    await writeFile(path.join(evil, "x.txt"), "evil\n");

    // Inside links.
    await symlink(path.join(repo, "src", "a.ts"), path.join(repo, "abs-inside-link"));
    await symlink("src/a.ts", path.join(repo, "rel-inside-link"));
    await symlink("src", path.join(repo, "dir-inside-link"));
    await symlink("rel-inside-link", path.join(repo, "chain-inside-link"));
    await symlink(".", path.join(repo, "self-link"));
    await symlink("../src/a.ts", path.join(repo, "nested", "up-but-inside"));
    // Escapes.
    await symlink(path.join(outside, "secret.txt"), path.join(repo, "file-escape"));
    await symlink("../outside/secret.txt", path.join(repo, "rel-file-escape"));
    await symlink(outside, path.join(repo, "dir-escape"));
    await symlink("../../outside", path.join(repo, "nested", "dir-escape"));
    await symlink(path.join(evil, "x.txt"), path.join(repo, "evil-prefix-file"));
    await symlink(evil, path.join(repo, "evil-prefix-dir"));
    await symlink("/", path.join(repo, "root-escape"));
    await symlink("..", path.join(repo, "parent-link"));
    await symlink("file-escape", path.join(repo, "chain-escape"));
    // Broken and looping links.
    await symlink(path.join(base, "does-not-exist"), path.join(repo, "dangling"));
    await symlink("loop-b", path.join(repo, "loop-a"));
    await symlink("loop-a", path.join(repo, "loop-b"));
    // The root reached through a symlink.
    await symlink(repo, path.join(base, "repo-link"));
    // Git's own folder, and links into it.
    await mkdir(path.join(repo, ".git"), { recursive: true });
    await writeFile(path.join(repo, ".git", "config"), "[core]\n");
    await symlink(".git/config", path.join(repo, "git-config-link"));
    await symlink("../.git/config", path.join(repo, "nested", "git-up-link"));
    await symlink(".git", path.join(repo, "git-dir-link"));
  });

  after(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  async function expectInside(root: string, input: string, relPath: string, realTarget: string): Promise<void> {
    const r = await resolveInsideRoot(root, input);
    const realRelPath = path.relative(realRepo, realTarget).split(path.sep).join("/");
    assert.deepEqual(r, { ok: true, relPath, absPath: realTarget, realRelPath }, `input ${JSON.stringify(input)}`);
  }

  async function expectRejected(root: string, input: string, reason: PathRejection): Promise<void> {
    const r = await resolveInsideRoot(root, input);
    expectReject(r, reason, input);
    if (!r.ok) {
      assert.ok(!r.message.includes(base), `message leaks a host path: ${r.message}`);
      assert.ok(!r.message.includes(tmpdir()), `message leaks the temp dir: ${r.message}`);
    }
  }

  it("resolves ordinary files and directories", async () => {
    await expectInside(repo, "src/a.ts", "src/a.ts", path.join(realRepo, "src", "a.ts"));
    await expectInside(repo, "src/deep/b.ts", "src/deep/b.ts", path.join(realRepo, "src", "deep", "b.ts"));
    await expectInside(repo, "src", "src", path.join(realRepo, "src"));
    await expectInside(repo, "src/deep/", "src/deep", path.join(realRepo, "src", "deep"));
  });

  it("resolves dot-files, unicode names and names containing '..'", async () => {
    await expectInside(repo, ".env", ".env", path.join(realRepo, ".env"));
    await expectInside(repo, "docs/日本語.md", "docs/日本語.md", path.join(realRepo, "docs", "日本語.md"));
    await expectInside(repo, "a..b", "a..b", path.join(realRepo, "a..b"));
  });

  it("normalizes before resolving", async () => {
    await expectInside(repo, "./src//a.ts", "src/a.ts", path.join(realRepo, "src", "a.ts"));
    await expectInside(repo, "src\\deep\\b.ts", "src/deep/b.ts", path.join(realRepo, "src", "deep", "b.ts"));
  });

  it("passes normalization rejections through unchanged", async () => {
    await expectRejected(repo, "../outside/secret.txt", "traversal");
    await expectRejected(repo, "src/../../outside/secret.txt", "traversal");
    await expectRejected(repo, "%2e%2e/outside/secret.txt", "traversal");
    await expectRejected(repo, path.join(base, "outside", "secret.txt"), "absolute_path");
    await expectRejected(repo, "", "empty_path");
    await expectRejected(repo, ".", "empty_path");
    await expectRejected(repo, "a\u0000", "invalid_characters");
    await expectRejected(repo, "a".repeat(MAX_PATH_LENGTH + 1), "too_long");
  });

  it("reports missing files as not_found", async () => {
    await expectRejected(repo, "src/missing.ts", "not_found");
    await expectRejected(repo, "missing-dir/missing.ts", "not_found");
    await expectRejected(repo, "src/a.ts/not-a-dir", "not_found");
  });

  it("accepts symlinks whose target stays inside the root", async () => {
    const a = path.join(realRepo, "src", "a.ts");
    await expectInside(repo, "abs-inside-link", "abs-inside-link", a);
    await expectInside(repo, "rel-inside-link", "rel-inside-link", a);
    await expectInside(repo, "chain-inside-link", "chain-inside-link", a);
    await expectInside(repo, "dir-inside-link/a.ts", "dir-inside-link/a.ts", a);
    await expectInside(repo, "dir-inside-link/deep/b.ts", "dir-inside-link/deep/b.ts", path.join(realRepo, "src", "deep", "b.ts"));
    await expectInside(repo, "nested/up-but-inside", "nested/up-but-inside", a);
  });

  it("accepts a symlink to the root itself", async () => {
    await expectInside(repo, "self-link", "self-link", realRepo);
    await expectInside(repo, "self-link/src/a.ts", "self-link/src/a.ts", path.join(realRepo, "src", "a.ts"));
  });

  it("rejects a file symlink that points outside", async () => {
    await expectRejected(repo, "file-escape", "symlink_escape");
    await expectRejected(repo, "rel-file-escape", "symlink_escape");
    await expectRejected(repo, "chain-escape", "symlink_escape");
  });

  it("rejects paths through a directory symlink that points outside", async () => {
    await expectRejected(repo, "dir-escape", "symlink_escape");
    await expectRejected(repo, "dir-escape/secret.txt", "symlink_escape");
    await expectRejected(repo, "dir-escape/dir/x.txt", "symlink_escape");
    await expectRejected(repo, "nested/dir-escape/secret.txt", "symlink_escape");
    await expectRejected(repo, "root-escape/etc", "symlink_escape");
    await expectRejected(repo, "parent-link", "symlink_escape");
    await expectRejected(repo, "parent-link/outside/secret.txt", "symlink_escape");
  });

  it("does not reveal whether a file exists outside the root", async () => {
    await expectRejected(repo, "dir-escape/no-such-file.txt", "symlink_escape");
    await expectRejected(repo, "dir-escape/no/such/dir.txt", "symlink_escape");
  });

  it("is not fooled by a sibling directory whose name starts with the root's name", async () => {
    assert.ok(path.join(base, "repo-evil").startsWith(realRepo), "fixture sanity: the sibling shares the prefix");
    await expectRejected(repo, "evil-prefix-file", "symlink_escape");
    await expectRejected(repo, "evil-prefix-dir/x.txt", "symlink_escape");
    await expectRejected(repo, "evil-prefix-dir", "symlink_escape");
  });

  it("works when the root itself is given through a symlink", async () => {
    const viaLink = path.join(base, "repo-link");
    await expectInside(viaLink, "src/a.ts", "src/a.ts", path.join(realRepo, "src", "a.ts"));
    await expectInside(viaLink, "abs-inside-link", "abs-inside-link", path.join(realRepo, "src", "a.ts"));
    await expectRejected(viaLink, "file-escape", "symlink_escape");
    await expectRejected(viaLink, "dir-escape/secret.txt", "symlink_escape");
    await expectRejected(viaLink, "evil-prefix-file", "symlink_escape");
  });

  it("works when the root is given with a trailing separator or unnormalized", async () => {
    await expectInside(repo + path.sep, "src/a.ts", "src/a.ts", path.join(realRepo, "src", "a.ts"));
    await expectInside(path.join(repo, "src", ".."), "src/a.ts", "src/a.ts", path.join(realRepo, "src", "a.ts"));
  });

  it("rejects git's own folder, asked for directly or reached through a symlink", async () => {
    for (const input of [".git/config", ".git", "./.git//config", ".GIT/config", "nested/.git/x"]) {
      await expectRejected(repo, input, "git_dir");
    }
    await expectRejected(repo, "git-config-link", "git_dir");
    await expectRejected(repo, "nested/git-up-link", "git_dir");
    await expectRejected(repo, "git-dir-link/config", "git_dir");
    await expectRejected(repo, "git-dir-link", "git_dir");
  });

  it("says where a symlink led: realRelPath differs from relPath exactly when one was followed", async () => {
    const plain = await resolveInsideRoot(repo, "src/a.ts");
    const linked = await resolveInsideRoot(repo, "nested/up-but-inside");
    assert.ok(plain.ok && linked.ok);
    assert.equal(plain.realRelPath, "src/a.ts");
    assert.equal(linked.realRelPath, "src/a.ts");
    assert.equal(linked.relPath, "nested/up-but-inside");
    const self = await resolveInsideRoot(repo, "self-link");
    assert.ok(self.ok && self.realRelPath === "");
  });

  it("treats dangling and looping symlinks as not_found", async () => {
    await expectRejected(repo, "dangling", "not_found");
    await expectRejected(repo, "loop-a", "not_found");
  });

  it("reports an inaccessible root without naming it", async () => {
    await expectRejected(path.join(base, "no-such-root"), "src/a.ts", "not_found");
  });

  it("returns an absPath that is inside the real root for every accepted input", async () => {
    for (const input of ["src/a.ts", "dir-inside-link/a.ts", "self-link", ".env", "nested/up-but-inside"]) {
      const r = await resolveInsideRoot(repo, input);
      assert.ok(r.ok, input);
      if (r.ok) assert.ok(r.absPath === realRepo || r.absPath.startsWith(realRepo + path.sep), r.absPath);
    }
  });
});
