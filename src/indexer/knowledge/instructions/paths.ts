/** Repository-relative paths named in instruction text: cleaned, joined to a folder, turned into globs. */

/** A path without leading `./` and `/`. */
export function cleanRelPath(p: string): string {
  let s = p.trim();
  while (s.startsWith("./")) s = s.slice(2);
  return s.replace(/^\/+/, "");
}

/** `web/src/generated/` → `web/src/generated/**`; a file stays itself; a glob stays a glob. */
export function pathToGlob(p: string): string {
  const s = cleanRelPath(p);
  if (/[*?[\]{}]/.test(s)) return s;
  if (s.endsWith("/")) return `${s}**`;
  const last = s.slice(s.lastIndexOf("/") + 1);
  return last.includes(".") && !last.startsWith(".") ? s : `${s}/**`;
}

/** `rel` resolved against folder `dir` (`..` and `.` applied; "" is the root). */
export function joinPath(dir: string, rel: string): string {
  const parts = dir === "" ? [] : dir.split("/");
  for (const seg of cleanRelPath(rel).replace(/\/+$/, "").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") parts.pop();
    else parts.push(seg);
  }
  return parts.join("/");
}

/** Parent folder; "" for top-level entries. */
export function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}
