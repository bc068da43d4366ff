/**
 * Lines of a source file that are prose, not code: comments, and in Python docstrings and other triple-quoted
 * text. A heuristic reading code by its lines (a route decorator, `DROP TABLE`, `rm -rf`) skips them: a docstring's
 * `@app.route("/")` example is no route, a commented-out `DELETE FROM` deletes nothing.
 */

const C_LIKE = /\.(c|h|cc|cpp|cxx|hpp|hh|cs|java|kt|kts|scala|go|rs|swift|js|jsx|mjs|cjs|ts|tsx|mts|cts|php|dart)$/i;
const HASH = /\.(py|pyi|rb|sh|bash|zsh|pl|r|ya?ml|toml|conf|ini|mk)$|(^|\/)(Makefile|Dockerfile)$/i;
const SQL = /\.sql$/i;

/** Per line (0-based), whether it is prose; an unknown kind of file has none. */
export function proseLines(path: string, lines: readonly string[]): boolean[] {
  const out = new Array<boolean>(lines.length).fill(false);
  if (/\.pyi?$/i.test(path)) return pythonProse(lines, out);
  if (C_LIKE.test(path)) return cLikeProse(lines, out);
  const marker = HASH.test(path) ? "#" : SQL.test(path) ? "--" : null;
  if (marker) for (const [i, l] of lines.entries()) out[i] = l.trimStart().startsWith(marker);
  return out;
}

function pythonProse(lines: readonly string[], out: boolean[]): boolean[] {
  let open: string | null = null;
  for (const [i, line] of lines.entries()) {
    const trimmed = line.trimStart();
    out[i] = open !== null || trimmed.startsWith("#") || trimmed.startsWith('"""') || trimmed.startsWith("'''");
    for (let at = 0; at < line.length; ) {
      if (open === null) {
        const next = [line.indexOf('"""', at), line.indexOf("'''", at)].filter((x) => x >= 0).sort((a, b) => a - b)[0];
        const hash = line.indexOf("#", at);
        if (next === undefined || (hash >= 0 && hash < next)) break;
        open = line.slice(next, next + 3);
        at = next + 3;
      } else {
        const close = line.indexOf(open, at);
        if (close < 0) break;
        open = null;
        at = close + 3;
      }
    }
  }
  return out;
}

function cLikeProse(lines: readonly string[], out: boolean[]): boolean[] {
  let inBlock = false;
  for (const [i, line] of lines.entries()) {
    const trimmed = line.trimStart();
    out[i] = inBlock || trimmed.startsWith("//") || trimmed.startsWith("/*") || (trimmed.startsWith("*") && !trimmed.startsWith("*/") && !/^\*\s*\w+\s*=/.test(trimmed));
    for (let at = 0; at < line.length; ) {
      if (!inBlock) {
        const start = line.indexOf("/*", at);
        const comment = line.indexOf("//", at);
        if (start < 0 || (comment >= 0 && comment < start)) break;
        inBlock = true;
        at = start + 2;
      } else {
        const end = line.indexOf("*/", at);
        if (end < 0) break;
        inBlock = false;
        at = end + 2;
      }
    }
  }
  return out;
}
