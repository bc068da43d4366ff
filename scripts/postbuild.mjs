// After tsc: make the CLI executable (tsc does not keep file modes) and copy the tags queries, which are data
// read at run time next to the compiled extractor.
import { chmodSync, cpSync } from "node:fs";

chmodSync(new URL("../dist/cli/main.js", import.meta.url), 0o755);
cpSync(new URL("../src/indexer/symbols/queries/", import.meta.url), new URL("../dist/indexer/symbols/queries/", import.meta.url), {
  recursive: true,
  filter: (src) => !src.endsWith(".md"),
});
