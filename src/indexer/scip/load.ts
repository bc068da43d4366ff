import { createHash } from "node:crypto";
import { readFile, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { QueryError } from "../../core/errors.js";
import { decodeScip, ScipDecodeError, type ScipDocument } from "./decode.js";

/**
 * The SCIP layer of a build: the documents of one or more SCIP indexes (`repoctx index --scip FILE`, or
 * `index.scip` at the repository root), by repository-relative path.
 */

/** The file the indexer looks for at the root when no `--scip` is given (what the SCIP indexers write by default). */
export const DEFAULT_SCIP_FILE = "index.scip";
/** SCIP indexes are decoded in memory; larger ones are refused with a clear error rather than exhausting the heap. */
export const MAX_SCIP_BYTES = 512 * 1024 * 1024;

export interface ScipEntry {
  doc: ScipDocument;
  /** The indexer and the index's digest, as file details name them (`scip-typescript 0.4.0 · 1a2b3c4d5e6f`). */
  source: string;
}

export interface ScipLayer {
  byPath: Map<string, ScipEntry>;
  /** Digest of every SCIP file read: a later build reuses a file's SCIP rows only under the same digest. */
  digest: string;
  files: { path: string; tool: string; documents: number }[];
  /** Documents left out: a path outside the repository, or a second document for one path. */
  warnings: string[];
  /** Size and modification time of the root's `index.scip` when it was read (an update compares them first). */
  rootFile: RootScipFile | null;
}

export interface RootScipFile {
  size: number;
  mtimeMs: number;
}

/** A SCIP index the operator named that cannot be used: an input error, said before anything is indexed. */
export class ScipLoadError extends QueryError {
  constructor(message: string) {
    super("invalid_input", message, "produce it with the language's SCIP indexer (scip-typescript index, scip-python index …) or leave out --scip");
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The layer's digest from the hashes of the SCIP files it read, in order. */
function digestOf(hashes: readonly string[]): string {
  const h = createHash("sha256");
  for (const x of hashes) h.update(x);
  return h.digest("hex").slice(0, 12);
}

/**
 * The digest `loadScipLayer` gives the root's `index.scip`, without decoding it; undefined when there is none. An
 * in-place update compares it with the index's to tell whether a build must read a new one: when the file's size
 * and modification time are those recorded, the recorded digest is taken without reading the file again.
 */
export async function scipDigest(repoRoot: string, known: { digest: string; rootFile?: RootScipFile } | undefined): Promise<string | undefined> {
  const path = join(repoRoot, DEFAULT_SCIP_FILE);
  let st;
  try {
    st = await stat(path);
  } catch {
    return undefined;
  }
  if (known?.rootFile && known.rootFile.size === st.size && known.rootFile.mtimeMs === st.mtimeMs) return known.digest;
  try {
    return digestOf([sha256(await readFile(path))]);
  } catch {
    return undefined;
  }
}

/**
 * Where a SCIP project root sits against the repository: `add` is the folder to put before its document paths (a
 * project inside the repository, `packages/app/`), `strip` the folder to take off them (the repository inside the
 * project, an index made at a monorepo's root); both "" when it is the root itself or was made elsewhere (CI).
 */
async function rebaseOf(projectRoot: string, repoRoot: string): Promise<{ add: string; strip: string }> {
  const none = { add: "", strip: "" };
  if (!projectRoot.startsWith("file:")) return none;
  let dir: string;
  try {
    dir = await realpath(fileURLToPath(projectRoot));
  } catch {
    return none; // made on another machine: its root is taken to be this repository's
  }
  const rel = relative(repoRoot, dir);
  if (rel === "" || isAbsolute(rel)) return none;
  if (!rel.startsWith("..")) return { add: rel.split(sep).join("/") + "/", strip: "" };
  const up = relative(dir, repoRoot);
  return up.startsWith("..") || isAbsolute(up) ? none : { add: "", strip: up.split(sep).join("/") + "/" };
}

/** A document path as a safe repository-relative path, or null (absolute, `..`, empty, outside the repository). */
function safePath(rebase: { add: string; strip: string }, relativePath: string): string | null {
  let p = relativePath.replace(/\\/g, "/").replace(/^\.\//, "");
  if (rebase.strip) {
    if (!p.startsWith(rebase.strip)) return null;
    p = p.slice(rebase.strip.length);
  }
  if (p === "" || p.startsWith("/") || /^[A-Za-z]:/.test(p) || p.split("/").some((s) => s === ".." || s === "")) return null;
  return rebase.add + p;
}

/**
 * Reads the SCIP files named (or `index.scip` at the root when `files` is undefined). A named file that is
 * missing, too large or not SCIP is an error; a default one that is not SCIP is skipped with a warning.
 */
export async function loadScipLayer(repoRoot: string, files: readonly string[] | undefined): Promise<ScipLayer | null> {
  const explicit = files !== undefined;
  const paths = explicit ? files.map((f) => (isAbsolute(f) ? f : join(process.cwd(), f))) : [join(repoRoot, DEFAULT_SCIP_FILE)];
  const layer: ScipLayer = { byPath: new Map(), digest: "", files: [], warnings: [], rootFile: null };
  const hashes: string[] = [];
  for (const path of paths) {
    let bytes: Buffer;
    try {
      const st = await stat(path);
      if (!st.isFile()) throw new ScipLoadError(`${path} is not a file`);
      if (st.size > MAX_SCIP_BYTES) throw new ScipLoadError(`${path} is ${st.size} bytes, over the ${MAX_SCIP_BYTES}-byte limit for SCIP indexes`);
      bytes = await readFile(path);
      if (!explicit) layer.rootFile = { size: st.size, mtimeMs: st.mtimeMs };
    } catch (err) {
      if (!explicit && (err as { code?: string }).code === "ENOENT") continue;
      if (err instanceof ScipLoadError) throw err;
      throw new ScipLoadError(`cannot read SCIP index ${path}: ${(err as Error).message}`);
    }
    // Every file read counts, one that is not SCIP too: the next update then knows it is the same file.
    const hash = sha256(bytes);
    hashes.push(hash);
    let index;
    try {
      index = decodeScip(bytes);
    } catch (err) {
      if (!(err instanceof ScipDecodeError)) throw err;
      if (explicit) throw new ScipLoadError(`${path} is not a SCIP index: ${err.message}`);
      layer.warnings.push(`${DEFAULT_SCIP_FILE} at the root is not a SCIP index (${err.message}); not used`);
      continue;
    }
    const tool = `${index.toolName || "unknown indexer"}${index.toolVersion ? ` ${index.toolVersion}` : ""}`;
    const source = `${tool} · ${hash.slice(0, 12)}`;
    const rebase = await rebaseOf(index.projectRoot, repoRoot);
    let outside = 0;
    for (const doc of index.documents) {
      const p = safePath(rebase, doc.relativePath);
      if (p === null) outside += 1;
      else if (layer.byPath.has(p)) layer.warnings.push(`${tool}: a second document for ${p}; the first is kept`);
      else layer.byPath.set(p, { doc, source });
    }
    if (outside > 0) layer.warnings.push(`${tool}: ${outside} document(s) lie outside the repository (or outside this part of the project); left out`);
    layer.files.push({ path, tool, documents: index.documents.length });
  }
  if (hashes.length === 0) return null;
  layer.digest = digestOf(hashes);
  return layer;
}
