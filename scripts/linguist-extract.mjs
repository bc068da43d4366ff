// Build step (run by postbuild.mjs): the fields of linguist-languages the classifiers read, written as one JSON file
// beside the compiled src/indexer/classify/linguist.ts, which reads it instead of loading the package's ~830 modules
// at start. Same records, same order as `Object.values` of the package.
import { writeFileSync } from "node:fs";
import * as linguist from "linguist-languages";

const FIELDS = ["name", "type", "extensions", "filenames", "interpreters"];

export function linguistExtract() {
  return Object.values(linguist).map((lang) => Object.fromEntries(FIELDS.filter((f) => lang[f] !== undefined).map((f) => [f, lang[f]])));
}

export function writeLinguistExtract(target) {
  writeFileSync(target, `${JSON.stringify(linguistExtract())}\n`);
}
