import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathError, readFileInsideRoot, statInsideRoot, type ReadRejection } from "../src/policy/path-guard.js";

const symlinksSupported = process.platform !== "win32";

// readFileInsideRoot / statInsideRoot: only regular files are opened; everything else is categorized (the
// resolution itself, symlinks and `.git` included, is tested in path-guard.test.ts).

/** A character device node (the same as /dev/null), when this process may make one; null otherwise. */
function makeDevice(at: string): string | null {
  try {
    execFileSync("mknod", [at, "c", "1", "3"], { stdio: "ignore" });
    return at;
  } catch {
    return null;
  }
}

describe("readFileInsideRoot and statInsideRoot", { skip: !symlinksSupported && "needs symlinks and FIFOs" }, () => {
  let base = "";
  let repo = "";
  let device: string | null = null;

  before(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "repoctx-read-")));
    repo = path.join(base, "repo");
    await mkdir(path.join(repo, "src"), { recursive: true });
    await writeFile(path.join(repo, "src", "a.ts"), "export const a = 1;\n");
    await writeFile(path.join(repo, "big.txt"), "x".repeat(100));
    execFileSync("mkfifo", [path.join(repo, "pipe")]);
    await symlink("pipe", path.join(repo, "pipe-link"));
    await symlink("src", path.join(repo, "dir-link"));
    await symlink("/dev/null", path.join(repo, "devnull-link"));
    device = makeDevice(path.join(repo, "dev-null"));
  });
  after(async () => {
    if (base !== "") await rm(base, { recursive: true, force: true });
  });

  async function expectRead(input: string, reason: ReadRejection, category: string): Promise<void> {
    const r = await readFileInsideRoot(repo, input, 1 << 20);
    assert.equal(r.ok, false, `${input}: expected ${reason}`);
    if (r.ok) return;
    assert.equal(r.reason, reason, `${input}: ${r.message}`);
    assert.ok(!r.message.includes(base), `message leaks a host path: ${r.message}`);
    assert.equal(pathError(r).category, category, input);
    const st = await statInsideRoot(repo, input);
    assert.ok(!st.ok && st.reason === reason, `statInsideRoot agrees for ${input}`);
  }

  it("reads a regular file, directly or through a symlink, and says where it really is", async () => {
    const r = await readFileInsideRoot(repo, "src/a.ts", 1 << 20);
    assert.ok(r.ok);
    assert.equal(r.bytes.toString("utf8"), "export const a = 1;\n");
    const linked = await readFileInsideRoot(repo, "dir-link/a.ts", 1 << 20);
    assert.ok(linked.ok && linked.realRelPath === "src/a.ts" && linked.relPath === "dir-link/a.ts");
  });

  it("a directory, or a symlink to one, is not_found: there is no file there", async () => {
    await expectRead("src", "directory", "not_found");
    await expectRead("dir-link", "directory", "not_found");
  });

  it("a FIFO, or a symlink to one, is refused without being opened (the call returns)", async () => {
    await expectRead("pipe", "special_file", "query_rejected");
    await expectRead("pipe-link", "special_file", "query_rejected");
  });

  it("a device node inside the root is refused; /dev/null through a symlink is an escape", async (t) => {
    await expectRead("devnull-link", "symlink_escape", "query_rejected");
    if (device === null) {
      t.skip("this process may not make device nodes (mknod)");
      return;
    }
    await expectRead("dev-null", "special_file", "query_rejected");
  });

  it("a file over the limit is refused before it is read; a missing one is not_found", async () => {
    const r = await readFileInsideRoot(repo, "big.txt", 99);
    assert.ok(!r.ok && r.reason === "too_large" && pathError(r).category === "query_rejected");
    assert.ok((await readFileInsideRoot(repo, "big.txt", 100)).ok);
    await expectRead("missing.txt", "not_found", "not_found");
  });
});
