import { dirname } from "node:path";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createServer } from "../../mcp/server.js";
import { EXTRACTOR_VERSION } from "../../indexer/pipeline.js";
import { serverDeps, servedRepoId, type Setup } from "../setup.js";
import { watchRepository } from "../watch.js";
import { runIndex } from "./index-cmd.js";

export interface ServeOptions {
  reindex?: boolean;
  quiet?: boolean;
  watch?: boolean;
}

/**
 * Serves one repository over MCP stdio. Indexes first when the store has no ready index for it (or with --reindex);
 * with --watch, rebuilds the index after changes settle while queries keep answering from the last ready one.
 * Progress and logs go to stderr, stdout carries only JSON-RPC.
 */
export async function runServe(s: Setup, opts: ServeOptions): Promise<void> {
  const existing = await servedRepoId(s);
  const ready = existing ? await s.store.getReadyIndex(existing) : null;
  const outdated = ready !== null && ready.extractorVersion !== EXTRACTOR_VERSION;
  if (opts.reindex || !existing || outdated) {
    const why = !existing ? "no ready index for this repository; indexing first" : outdated ? "the index was built by an older extractor; reindexing" : "reindexing before serving";
    s.logger.log("info", why);
    const result = await runIndex(s, { quiet: opts.quiet ?? false });
    s.logger.log("info", "index ready", { repoId: result.repo.repoId, indexVersion: result.indexVersion, files: result.stats.files });
  }
  const server = createServer(await serverDeps(s));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const watcher = opts.watch
    ? watchRepository(s.root, {
        logger: s.logger,
        ignore: [dirname(s.storePath)],
        rebuild: async () => {
          const result = await runIndex(s, { quiet: true });
          s.logger.log("info", "reindexed after a change", { indexVersion: result.indexVersion, files: result.stats.files, ms: result.stats.durationMs });
        },
      })
    : null;
  await new Promise<void>((resolve) => {
    const done = (): void => resolve();
    process.stdin.once("end", done);
    process.stdin.once("close", done);
    server.onclose = done;
  });
  watcher?.close();
  await server.close();
}
