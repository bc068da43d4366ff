// After tsc (scripts/postbuild.mjs): the CLI as one ES module graph, so a start reads a few files instead of
// resolving and compiling hundreds (issue #19: `serve` answers `initialize` within 5x a bare node start).
//
// esbuild bundles dist/cli/main.js and the symbol worker (dist/indexer/symbols/worker.js) into dist/cli/: main.js
// (replacing tsc's), worker.js and shared chunks, split at every dynamic import so commands still load lazily. The
// bundled code finds its data next to itself (import.meta.url is the chunk's): the tags queries and the Linguist
// extract are copied into dist/cli/, and `../../package.json` still names the package's. Packages that load native
// code, WebAssembly or data files by their own path stay external and are required from node_modules at run time.
import { build } from "esbuild";

// yaml: imported dynamically, where a bundled CommonJS module would not show its named exports.
const EXTERNAL = ["better-sqlite3", "yaml", "web-tree-sitter", "@vscode/tree-sitter-wasm", "tree-sitter-wasms", "pg", "linguist-languages", "gpt-tokenizer"];

export async function bundleCli() {
  const dist = new URL("../dist/", import.meta.url);
  await build({
    entryPoints: { main: new URL("cli/main.js", dist).pathname, worker: new URL("indexer/symbols/worker.js", dist).pathname },
    outdir: new URL("cli/", dist).pathname,
    allowOverwrite: true,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: EXTERNAL,
    // CommonJS packages inside the bundle call require for node's built-ins; an ES module has none of its own.
    banner: { js: "import { createRequire as __repoctxRequire } from 'node:module'; const require = __repoctxRequire(import.meta.url);" },
    // Shared chunks beside the entries (chunk-*.js), so their import.meta.url sits where main.js does.
    chunkNames: "chunk-[hash]",
    logLevel: "warning",
  });
}
