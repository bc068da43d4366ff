/**
 * Prepares a benchmark corpus once under `.bench/corpus/<name>/` as a real git repository (one commit with a
 * fixed author and date), and reuses it on later runs while its marker file still matches the source.
 */
import { spawnSync, type SpawnSyncOptions } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./dist.js";

export type CorpusName = "linux" | "node_modules";
export const CORPUS_NAMES: readonly CorpusName[] = ["linux", "node_modules"];

export const BENCH_DIR = join(REPO_ROOT, ".bench");
const CORPUS_DIR = join(BENCH_DIR, "corpus");
const SOURCE_TARBALL_DIR = "/usr/src";
const LINUX_TARBALL = /^linux-source-[\d.]+\.tar\.(xz|bz2|gz|zst)$/;
const LINUX_PACKAGE = "linux-source";
/** Bumped when preparation changes, so an old corpus is rebuilt rather than reused. */
const PREPARE_VERSION = 1;

/**
 * Debian's linux-source tarball ends its top-level .gitignore with this block. Outside Debian's own packaging
 * repository it ignores every top-level entry, so a `git add -A` of the tarball would add nothing but .gitignore.
 */
const DEBIAN_GITIGNORE_BLOCK = [
  "#",
  "# Debian packaging: ignore everything at the top level, since it isn't",
  "# included in our repository",
  "#",
  "/*",
  "!/debian/",
];
const DEBIAN_GITIGNORE_RULES = ["/*", "!/debian/"];

const FIXED_DATE = "2000-01-01T00:00:00Z";
const GIT_ENV: NodeJS.ProcessEnv = {
  GIT_AUTHOR_NAME: "repoctx bench",
  GIT_AUTHOR_EMAIL: "bench@repoctx.invalid",
  GIT_COMMITTER_NAME: "repoctx bench",
  GIT_COMMITTER_EMAIL: "bench@repoctx.invalid",
  GIT_AUTHOR_DATE: FIXED_DATE,
  GIT_COMMITTER_DATE: FIXED_DATE,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export interface Corpus {
  name: CorpusName;
  /** Work tree that is indexed and searched. */
  root: string;
  /** Where the files came from, for the report. */
  source: string;
  /** What preparation changed in the source, for the report. */
  notes: string[];
}

interface Marker {
  version: number;
  source: string;
  sourceKey: string;
  notes: string[];
  preparedAt: string;
}

function log(message: string): void {
  process.stderr.write(`bench: ${message}\n`);
}

/** Runs a command, its output on our stderr (stdout is the bench's report); throws on failure. */
function sh(cmd: string, args: string[], opts: SpawnSyncOptions = {}): void {
  log(`$ ${cmd} ${args.join(" ")}${opts.cwd ? `   (in ${String(opts.cwd)})` : ""}`);
  const r = spawnSync(cmd, args, { stdio: ["ignore", process.stderr, process.stderr], ...opts });
  if (r.error) throw new Error(`${cmd} could not start: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args[0] ?? ""} exited with ${r.status ?? r.signal}`);
}

function markerPath(name: CorpusName): string {
  return join(CORPUS_DIR, `${name}.prepared.json`);
}

function readMarker(name: CorpusName): Marker | null {
  try {
    return JSON.parse(readFileSync(markerPath(name), "utf8")) as Marker;
  } catch {
    return null;
  }
}

function reusable(name: CorpusName, root: string, sourceKey: string): Marker | null {
  const m = readMarker(name);
  if (!m || m.version !== PREPARE_VERSION || m.sourceKey !== sourceKey) return null;
  return existsSync(join(root, ".git")) ? m : null;
}

function writeMarker(name: CorpusName, source: string, sourceKey: string, notes: string[]): void {
  const m: Marker = { version: PREPARE_VERSION, source, sourceKey, notes, preparedAt: new Date().toISOString() };
  writeFileSync(markerPath(name), `${JSON.stringify(m, null, 2)}\n`);
}

/** `git init` + `git add -A` + one commit with a fixed author and date, isolated from the user's git config. */
function commitAll(root: string, message: string): void {
  const env = { ...process.env, ...GIT_ENV };
  sh("git", ["init", "-q", "-b", "bench"], { cwd: root, env });
  sh("git", ["-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "add", "-A"], { cwd: root, env });
  sh("git", ["-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m", message], { cwd: root, env });
}

function findLinuxTarball(): string | null {
  let names: string[];
  try {
    names = readdirSync(SOURCE_TARBALL_DIR).filter((n) => LINUX_TARBALL.test(n));
  } catch {
    return null;
  }
  names.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const newest = names.at(-1);
  return newest ? join(SOURCE_TARBALL_DIR, newest) : null;
}

function installLinuxSource(): void {
  if (process.getuid?.() !== 0) {
    throw new Error(`no ${SOURCE_TARBALL_DIR}/linux-source-*.tar.* and not root: run \`sudo apt-get install -y ${LINUX_PACKAGE}\` first`);
  }
  log(`no ${SOURCE_TARBALL_DIR}/linux-source-*.tar.*: installing the Debian package ${LINUX_PACKAGE}`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    sh("apt-get", ["install", "-y", LINUX_PACKAGE], { env });
  } catch {
    log("install failed; refreshing the package lists and retrying once");
    sh("apt-get", ["update"], { env });
    sh("apt-get", ["install", "-y", LINUX_PACKAGE], { env });
  }
}

/** Removes Debian's packaging block (or, failing an exact match, its two rules) from the top-level .gitignore. */
function stripDebianGitignore(root: string): string[] {
  const file = join(root, ".gitignore");
  if (!existsSync(file)) return ["no top-level .gitignore"];
  const lines = readFileSync(file, "utf8").split("\n");
  for (let i = 0; i + DEBIAN_GITIGNORE_BLOCK.length <= lines.length; i++) {
    if (DEBIAN_GITIGNORE_BLOCK.every((l, k) => lines[i + k] === l)) {
      lines.splice(i, DEBIAN_GITIGNORE_BLOCK.length);
      writeFileSync(file, lines.join("\n"));
      return [`removed Debian's ${DEBIAN_GITIGNORE_BLOCK.length}-line packaging block (\`/*\`, \`!/debian/\`) from .gitignore`];
    }
  }
  const kept = lines.filter((l) => !DEBIAN_GITIGNORE_RULES.includes(l));
  if (kept.length === lines.length) return ["top-level .gitignore has no Debian packaging rules; left unchanged"];
  writeFileSync(file, kept.join("\n"));
  return [`removed ${lines.length - kept.length} Debian packaging rule(s) from .gitignore`];
}

function prepareLinux(): Corpus {
  let tarball = findLinuxTarball();
  if (!tarball) {
    installLinuxSource();
    tarball = findLinuxTarball();
    if (!tarball) throw new Error(`${LINUX_PACKAGE} is installed but no tarball was found in ${SOURCE_TARBALL_DIR}`);
  }
  const st = statSync(tarball);
  const sourceKey = `${tarball}:${st.size}:${st.mtimeMs}`;
  const root = join(CORPUS_DIR, "linux");
  const reuse = reusable("linux", root, sourceKey);
  if (reuse) {
    log(`reusing the prepared corpus ${root} (marker ${markerPath("linux")})`);
    return { name: "linux", root, source: tarball, notes: reuse.notes };
  }
  log(`preparing ${root} from ${tarball} (extract + git commit; a few minutes, once)`);
  rmSync(root, { recursive: true, force: true });
  rmSync(markerPath("linux"), { force: true });
  mkdirSync(root, { recursive: true });
  sh("tar", ["-xf", tarball, "-C", root, "--strip-components=1"]);
  const notes = stripDebianGitignore(root);
  for (const n of notes) log(n);
  commitAll(root, `linux source from ${tarball}`);
  writeMarker("linux", tarball, sourceKey, notes);
  return { name: "linux", root, source: tarball, notes };
}

function prepareNodeModules(): Corpus {
  const source = join(REPO_ROOT, "node_modules");
  if (!existsSync(source)) throw new Error(`${source} is missing: run \`npm ci\` first`);
  // The lock file pins node_modules' content: a changed lock means a fresh copy.
  const lock = join(REPO_ROOT, "package-lock.json");
  const sourceKey = createHash("sha256").update(existsSync(lock) ? readFileSync(lock) : "").digest("hex");
  const root = join(CORPUS_DIR, "node_modules");
  const notes = ["copied with `cp -a` (symlinks kept as links) so it can be its own git repository"];
  const reuse = reusable("node_modules", root, sourceKey);
  if (reuse) {
    log(`reusing the prepared corpus ${root} (marker ${markerPath("node_modules")})`);
    return { name: "node_modules", root, source, notes: reuse.notes };
  }
  log(`preparing ${root} from ${source}`);
  rmSync(root, { recursive: true, force: true });
  rmSync(markerPath("node_modules"), { force: true });
  mkdirSync(CORPUS_DIR, { recursive: true });
  sh("cp", ["-a", source, root]);
  commitAll(root, "this repository's node_modules");
  writeMarker("node_modules", source, sourceKey, notes);
  return { name: "node_modules", root, source, notes };
}

export function prepareCorpus(name: CorpusName): Corpus {
  mkdirSync(CORPUS_DIR, { recursive: true });
  return name === "linux" ? prepareLinux() : prepareNodeModules();
}
