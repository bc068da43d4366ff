/**
 * Lines of a source file that are prose, not code: comments, in Python docstrings and other triple-quoted
 * text, in Go raw strings. A heuristic reading code by its lines (a route decorator, `DROP TABLE`, `rm -rf`) skips them: a docstring's
 * `@app.route("/")` example is no route, a commented-out `DELETE FROM` deletes nothing.
 */

const C_LIKE = /\.(c|h|cc|cpp|cxx|hpp|hh|cs|java|kt|kts|scala|go|rs|swift|js|jsx|mjs|cjs|ts|tsx|mts|cts|php|dart)$/i;
const HASH = /\.(py|pyi|rb|sh|bash|zsh|pl|r|ya?ml|toml|conf|ini|mk)$|(^|\/)(Makefile|Dockerfile)$/i;
const SQL = /\.sql$/i;

/** How a language writes prose: regions it opens and closes (docstrings, block comments) and its line comment. */
interface ProseSyntax {
  /** Each opening delimiter with the one that closes it. */
  regions: ReadonlyMap<string, string>;
  lineComment: string;
  /** A line beginning (after its indentation) like this is prose whatever follows. */
  startsProse: (trimmed: string) => boolean;
}

const PYTHON: ProseSyntax = {
  regions: new Map([
    ['"""', '"""'],
    ["'''", "'''"],
  ]),
  lineComment: "#",
  startsProse: (t) => t.startsWith("#") || t.startsWith('"""') || t.startsWith("'''"),
};

const C_STYLE: ProseSyntax = {
  regions: new Map([["/*", "*/"]]),
  lineComment: "//",
  // A `*` continuing a block comment, not a dereference assigned to (`*p = 0;`).
  startsProse: (t) => t.startsWith("//") || t.startsWith("/*") || (t.startsWith("*") && !t.startsWith("*/") && !/^\*\s*\w+\s*=/.test(t)),
};

/** Go: block comments, and raw strings (a code template held in a backquoted string is text, not code that runs). */
const GO: ProseSyntax = {
  regions: new Map([
    ["/*", "*/"],
    ["`", "`"],
  ]),
  lineComment: "//",
  startsProse: C_STYLE.startsProse,
};

/** Per line (0-based), whether it is prose; an unknown kind of file has none. */
export function proseLines(path: string, lines: readonly string[]): boolean[] {
  const out = new Array<boolean>(lines.length).fill(false);
  if (/\.pyi?$/i.test(path)) return regionProse(lines, out, PYTHON);
  if (/\.go$/i.test(path)) return regionProse(lines, out, GO);
  if (C_LIKE.test(path)) return regionProse(lines, out, C_STYLE);
  const marker = HASH.test(path) ? "#" : SQL.test(path) ? "--" : null;
  if (marker) for (const [i, l] of lines.entries()) out[i] = l.trimStart().startsWith(marker);
  return out;
}

/** Lines inside a region (or starting as prose) are prose; a line comment ends the search for openers on its line. */
function regionProse(lines: readonly string[], out: boolean[], syntax: ProseSyntax): boolean[] {
  let open: string | null = null;
  for (const [i, line] of lines.entries()) {
    out[i] = open !== null || syntax.startsProse(line.trimStart());
    for (let at = 0; at < line.length; ) {
      if (open === null) {
        let next: { opener: string; index: number } | null = null;
        for (const opener of syntax.regions.keys()) {
          const index = line.indexOf(opener, at);
          if (index >= 0 && (next === null || index < next.index)) next = { opener, index };
        }
        const comment = line.indexOf(syntax.lineComment, at);
        if (next === null || (comment >= 0 && comment < next.index)) break;
        open = next.opener;
        at = next.index + next.opener.length;
      } else {
        const closer = syntax.regions.get(open)!;
        const close = line.indexOf(closer, at);
        if (close < 0) break;
        open = null;
        at = close + closer.length;
      }
    }
  }
  return out;
}
