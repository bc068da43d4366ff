/**
 * One thread of `serve --http`'s pool (see serve-pool.ts): it opens its own connection to the store, builds the same
 * deps the server's thread would, and answers the tools/call requests the server hands it. Logs and audit records go
 * back to the server's thread, which writes them: one writer for the audit log, one stream for the logs.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Logger } from "../core/log.js";
import { toolCaller } from "../mcp/server.js";
import { auditSink } from "../service/audit.js";
import { repoSet } from "../service/deps.js";
import { createRequestSources } from "../sources/index.js";
import { lazyExtractor } from "../sources/work-tree-overlay.js";
import { openStore } from "../store/open.js";
import { targetDeps } from "./serve-deps.js";
import { governHeap } from "./heap-governor.js";
import { ChangeLog } from "./watch.js";
import type { PoolInit, ToPool, ToWorker } from "./serve-pool.js";

const port = parentPort!;
/** Below this a worker's committed heap is left to V8 (its live data alone is ~25–45 MiB under load). */
const WORKER_HEAP_FLOOR = 32 * 1024 * 1024;
const send = (msg: ToPool): void => port.postMessage(msg);

async function start(init: PoolInit): Promise<void> {
  const logger: Logger = { log: (level, message, fields) => send({ log: { level, message, ...(fields ? { fields } : {}) } }) };
  const store = await openStore(init.storePath);
  const context = { store, operator: init.operator, sources: createRequestSources(init.operator, process.env), logger, extractor: lazyExtractor() };
  const audit = auditSink(async (rec) => send({ audit: rec }), init.operator.repoContext.auditPreview);
  // Each work tree's changes as the server's watcher saw them: a quiet tree keeps its overlay, an edit is looked at alone.
  const feeds = init.targets.map(() => new ChangeLog());
  const deps = init.targets.map((t, i) => targetDeps(t, context, audit, feeds[i]));
  const call = toolCaller(deps.length === 1 ? deps[0]! : repoSet(deps), init.tools);
  port.on("message", (msg: ToWorker) => {
    if ("change" in msg) {
      feeds[msg.change.target]?.saw(msg.change.file, msg.change.known);
      return;
    }
    if ("close" in msg) {
      void store.close().finally(() => port.close());
      return;
    }
    call(msg.params).then(
      (result) => send({ id: msg.id, result }),
      (err: unknown) => send({ id: msg.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) }),
    );
  });
  // A worker's heap is capped (workerLimits) but V8 fills the cap with garbage before it collects in full.
  governHeap({ floorBytes: WORKER_HEAP_FLOOR });
  send({ ready: true });
}

start(workerData as PoolInit).catch((err: unknown) => send({ failed: err instanceof Error ? err.message : String(err) }));
