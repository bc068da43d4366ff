import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { GitError, gitDiffPaths, runGit } from "../src/indexer/git.js";
import { git } from "./helpers/fixture.js";

/** A revision read from an index row or a user goes to git as a value: one shaped like an option never runs. */
describe("runGit values", () => {
  let root: string;
  let head: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), "repoctx-git-args-"));
    git(root, ["init", "-q", "-b", "main"]);
    writeFileSync(join(root, "-n"), "a file whose name looks like an option\n");
    writeFileSync(join(root, "a.txt"), "one\n");
    git(root, ["add", "-A"]);
    git(root, ["commit", "-q", "-m", "first"]);
    writeFileSync(join(root, "a.txt"), "two\n");
    git(root, ["commit", "-q", "-am", "second"]);
    head = git(root, ["rev-parse", "HEAD"]).trim();
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test("a revision starting with '-' is refused before git runs (git diff --output would write a file)", async () => {
    const target = join(root, "written-by-git");
    await assert.rejects(runGit(root, ["diff"], { revs: [`--output=${target}`] }), (e: unknown) => e instanceof GitError && /starts with '-'/.test(e.message));
    assert.equal(await gitDiffPaths(root, `--output=${target}`, head), null);
    assert.equal(existsSync(target), false);
    await assert.rejects(runGit(root, ["cat-file", "blob"], { revs: [""] }), GitError);
  });

  test("ordinary revisions and option-shaped paths after '--' still work", async () => {
    assert.deepEqual(await gitDiffPaths(root, `${head}~1`, head), ["a.txt"]);
    const listed = (await runGit(root, ["ls-files", "-z"], { paths: ["-n"] })).toString("utf8");
    assert.equal(listed, "-n\0");
  });
});
