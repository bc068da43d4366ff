import picomatch from "picomatch";

const GLOB_CHARS = /[*?[\]{}()!+@]/;

export interface PathMatcher {
  /** A literal prefix every matching path starts with (for the store's range scan); "" when none. */
  prefix: string;
  matches(path: string): boolean;
}

/** The literal directory prefix of a glob, up to its last `/` before the first glob character. */
function literalPrefix(glob: string): string {
  const m = GLOB_CHARS.exec(glob);
  if (!m) return glob;
  const head = glob.slice(0, m.index);
  const slash = head.lastIndexOf("/");
  return slash === -1 ? "" : head.slice(0, slash + 1);
}

function commonPrefix(values: string[]): string {
  if (values.length === 0) return "";
  let p = values[0]!;
  for (const v of values.slice(1)) {
    let i = 0;
    while (i < p.length && i < v.length && p[i] === v[i]) i += 1;
    p = p.slice(0, i);
  }
  return p;
}

/**
 * Path filter from globs (`src/**\/*.ts`). A pattern without glob characters names a file or a folder
 * (`src/app` matches `src/app` and everything under it). Dot-files match like any other file.
 */
export function compilePathGlobs(globs: string[] | undefined): PathMatcher {
  if (!globs || globs.length === 0) return { prefix: "", matches: () => true };
  const cleaned = globs.map((g) => g.replace(/^\.\//, "").replace(/^\/+/, ""));
  const tests = cleaned.map((g) => {
    if (!GLOB_CHARS.test(g)) {
      const folder = g.replace(/\/+$/, "");
      return (p: string) => p === folder || p.startsWith(`${folder}/`);
    }
    return picomatch(g, { dot: true });
  });
  const prefixes = cleaned.map((g) => (GLOB_CHARS.test(g) ? literalPrefix(g) : g.replace(/\/+$/, "")));
  return { prefix: commonPrefix(prefixes), matches: (p) => tests.some((t) => t(p)) };
}

/**
 * A path as a log, a stack trace or a question writes it (`file://`, absolute under the repository root, `./x`),
 * relative to the root when it is under it; anything else comes back cleaned but otherwise as written.
 */
export function repoRelativePath(rootPath: string, raw: string): string {
  const clean = raw.replace(/^file:\/\//, "");
  const root = rootPath.endsWith("/") ? rootPath : `${rootPath}/`;
  return clean.startsWith(root) ? clean.slice(root.length) : clean.replace(/^\.\//, "");
}
