import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = fileURLToPath(new URL("../fixtures/repos/", import.meta.url));

/** Size of the generated oversized file: just over the default 1 MiB indexing limit. */
export const OVERSIZED_BYTES = 1024 * 1024 + 4096;

const GIT_ENV = {
  GIT_AUTHOR_NAME: "Fixture Author",
  GIT_AUTHOR_EMAIL: "fixture@example.com",
  GIT_COMMITTER_NAME: "Fixture Author",
  GIT_COMMITTER_EMAIL: "fixture@example.com",
  GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
  GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
  GIT_CONFIG_NOSYSTEM: "1",
  HOME: tmpdir(),
};

export function git(cwd: string, args: string[]): string {
  return execFileSync("git", args, { cwd, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }).trim();
}

/** Writes the files (path → text) under `root` and commits them as the first commit of a new repository. */
export function commitFiles(root: string, files: Record<string, string>, message = "fixture"): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "-m", message]);
}

/** Files stored as `_dot_x` in the fixture folder become `.x`, so they cannot affect this repository's own git. */
function undot(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const from = join(dir, entry.name);
    if (entry.isDirectory()) undot(from);
    if (entry.name.startsWith("_dot_")) renameSync(from, join(dir, `.${entry.name.slice("_dot_".length)}`));
  }
}

export interface BuiltRepo {
  /** Parent temp folder; holds `repo/` and files outside the repository. */
  base: string;
  root: string;
  commit: string;
  cleanup(): void;
}

/**
 * Builds the golden fixture into a real git repository: the checked-in text files plus what git or this
 * repository should not hold directly (a binary, an oversized file, a non-UTF-8 file, a symlink escaping the
 * root), committed with fixed dates so the commit is the same on every machine; then an untracked and an
 * ignored file appear in the work tree.
 */
export function buildGoldenRepo(): BuiltRepo {
  const base = mkdtempSync(join(tmpdir(), "repoctx-golden-"));
  const root = join(base, "repo");
  cpSync(join(FIXTURES, "golden"), root, { recursive: true });
  undot(root);
  writeFileSync(join(base, "outside-secret.txt"), "this file is outside the repository\n");
  mkdirSync(join(root, "assets"), { recursive: true });
  writeFileSync(join(root, "assets/logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
  mkdirSync(join(root, "data"), { recursive: true });
  const row = "INSERT INTO quotes VALUES ('SKU-0001', 2, 19.80);\n";
  writeFileSync(join(root, "data/huge-dump.sql"), row.repeat(Math.ceil(OVERSIZED_BYTES / row.length)));
  writeFileSync(join(root, "docs/legacy-latin1.txt"), Buffer.from("caf\xe9 cr\xe8me\n", "latin1"));
  symlinkSync("../../outside-secret.txt", join(root, "docs/outside-link.txt"));
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["config", "user.name", "Fixture Author"]);
  git(root, ["config", "user.email", "fixture@example.com"]);
  git(root, ["remote", "add", "origin", "https://github.com/acme/pricing-service.git"]);
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "-m", "Initial pricing service"]);
  const commit = git(root, ["rev-parse", "HEAD"]);
  mkdirSync(join(root, "notes"), { recursive: true });
  writeFileSync(join(root, "notes/todo.md"), "# TODO\n\n- quote caching\n");
  mkdirSync(join(root, "build"), { recursive: true });
  writeFileSync(join(root, "build/output.js"), "console.log('ignored build output');\n");
  return { base, root, commit, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
