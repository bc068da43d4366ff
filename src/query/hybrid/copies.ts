/**
 * Copies of one document: other versions (`docs/v1.5/manual.yml`) and translations (`doc/README-ja.md`). The ranker
 * keeps the first of each family in its place and lets the rest fall (HYBRID_WEIGHTS.copyShare).
 */

/** Folder segments naming a version (`v1.5`, `1.6`, `v2`) or a locale (`ja`, `zh-CN`, `pt_BR`). */
const VERSION_SEGMENT = /^v?\d+(\.\d+)*(\.x)?$/i;
const LOCALES = "ar|bg|bn|cs|da|de|el|es|fa|fi|fr|he|hi|hu|id|it|ja|ko|nl|no|pl|pt|ro|ru|sk|sv|th|tr|uk|vi|zh";
const LOCALE_SEGMENT = new RegExp(`^(${LOCALES})([-_][a-z]{2,4})?$`, "i");
/** A locale in a file name: `README-ja.md`, `README.zh-CN.md`, `guide_pt_BR.md`. */
const LOCALE_SUFFIX = new RegExp(`[-_.](${LOCALES})([-_][a-z]{2,4})?(?=\\.[^.]+$)`, "i");

/**
 * What a documentation file is a copy of: its path with version and locale folders taken out (`docs/v1.5/manual.yml`
 * → `docs/manual.yml`), or for a translation named by its locale (`doc/README-ja.md`) just the original's file
 * name, wherever the original lives.
 */
export function docFamilyOf(path: string): { path: string; translationOf: string | null } {
  const segs = path.split("/");
  const name = segs.pop()!;
  const original = name.replace(LOCALE_SUFFIX, "");
  const dirs = segs.filter((s) => !VERSION_SEGMENT.test(s) && !LOCALE_SEGMENT.test(s));
  return { path: [...dirs, original].join("/"), translationOf: original !== name ? original : null };
}
