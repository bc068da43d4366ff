// After tsc: make the CLI executable (tsc does not keep file modes), copy the tags queries, which are data
// read at run time next to the compiled extractor, and write the Linguist extract (scripts/linguist-extract.mjs).
import { chmodSync, cpSync } from "node:fs";
import { writeLinguistExtract } from "./linguist-extract.mjs";

chmodSync(new URL("../dist/cli/main.js", import.meta.url), 0o755);
cpSync(new URL("../src/indexer/symbols/queries/", import.meta.url), new URL("../dist/indexer/symbols/queries/", import.meta.url), {
  recursive: true,
  filter: (src) => !src.endsWith(".md"),
});
writeLinguistExtract(new URL("../dist/indexer/classify/linguist-languages.json", import.meta.url));
