/**
 * The Linguist language records the classifiers read: name, type, extensions, filenames and interpreters, in the
 * package's export order. `linguist-languages` is some 830 ES modules (about 0.2 s to load), so the build writes
 * just these fields to `linguist-languages.json` beside the compiled module (scripts/linguist-extract.mjs) and that
 * is read instead; run from the sources (no build), the package itself is loaded, synchronously, on first use.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Language } from "linguist-languages";

/** The fields of a Linguist language that repoctx uses. */
export type LinguistLanguage = Pick<Language, "name" | "type" | "extensions" | "filenames" | "interpreters">;

/** Written by the build next to this module's compiled file. */
export const LINGUIST_EXTRACT = new URL("./linguist-languages.json", import.meta.url);

let languages: readonly LinguistLanguage[] | undefined;

function fromExtract(): readonly LinguistLanguage[] | undefined {
  try {
    return JSON.parse(readFileSync(LINGUIST_EXTRACT, "utf8")) as LinguistLanguage[];
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** Every Linguist language, as `Object.values` of the package lists them; read once. */
export function linguistLanguages(): readonly LinguistLanguage[] {
  languages ??= fromExtract() ?? (Object.values(createRequire(import.meta.url)("linguist-languages") as Record<string, Language>) as LinguistLanguage[]);
  return languages;
}
