/**
 * Path helpers shared by the file classifiers in this folder.
 *
 * Paths are repository-relative and use "/" (a "\" is tolerated and treated like "/").
 */

/** The last path segment (after the last "/" or "\"), or the whole path when it has no separator. */
export function baseNameOf(path: string): string {
  let i = path.lastIndexOf("/");
  const j = path.lastIndexOf("\\");
  if (j > i) i = j;
  return i < 0 ? path : path.slice(i + 1);
}
