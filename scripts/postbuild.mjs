// After tsc: copy the tags queries, which are data read at run time next to the compiled extractor, write the
// Linguist extract (scripts/linguist-extract.mjs), bundle the CLI (scripts/bundle.mjs: the bundled code reads the
// same data next to itself, in dist/cli/), and make the CLI executable (tsc does not keep file modes).
import { chmodSync, cpSync, readdirSync, rmSync } from "node:fs";
import { bundleCli } from "./bundle.mjs";
import { writeLinguistExtract } from "./linguist-extract.mjs";

const dist = new URL("../dist/", import.meta.url);
// A chunk of an earlier bundle is never read again: start dist/cli/ from tsc's files alone.
for (const f of readdirSync(new URL("cli/", dist))) if (/^chunk-.*\.js$/.test(f)) rmSync(new URL(`cli/${f}`, dist));
const queries = new URL("../src/indexer/symbols/queries/", import.meta.url);
for (const to of ["indexer/symbols/queries/", "cli/queries/"]) cpSync(queries, new URL(to, dist), { recursive: true, filter: (src) => !src.endsWith(".md") });
writeLinguistExtract(new URL("indexer/classify/linguist-languages.json", dist));
cpSync(new URL("indexer/classify/linguist-languages.json", dist), new URL("cli/linguist-languages.json", dist));
await bundleCli();
chmodSync(new URL("cli/main.js", dist), 0o755);
