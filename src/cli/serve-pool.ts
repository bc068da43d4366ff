/**
 * `serve --http`'s pool of worker threads: every tools/call is answered by one of them (the least busy), each with its
 * own connection to the store, so queries run on every core while the server's thread speaks HTTP and MCP. Resources,
 * prompts and the watcher's updates stay in the server's thread; a worker sees an update through its connection (the
 * store's caches are keyed by the index version). A worker that stops answers its calls in flight with an internal
 * error and is started again; with none running, the server's thread answers.
 */
import type { ResourceLimits, Worker } from "node:worker_threads";
import type { OperatorConfig } from "../config/schema.js";
import type { Logger, LogLevel } from "../core/log.js";
import { moduleWorker } from "../core/module-worker.js";
import { failedCallResult, type ToolCaller, type ToolCallParams, type ToolCallResult } from "../mcp/server.js";
import { toErrorData } from "../service/errors.js";
import type { AuditRecord } from "../store/store.js";
import type { ServedTarget } from "./serve-deps.js";

/** What a worker is started with: everything it needs to build the deps the server's thread has (no secrets). */
export interface PoolInit {
  storePath: string;
  operator: OperatorConfig;
  targets: ServedTarget[];
  tools?: string[];
}

/** A work-tree change the server's watcher saw in served repository `target` (its place in `targets`), for the worker's `ChangeLog`. */
export interface WorkerChange {
  target: number;
  file: string | null;
  known: boolean;
}

export type ToWorker = { id: number; params: ToolCallParams } | { change: WorkerChange } | { close: true };

export type ToPool =
  | { ready: true }
  | { failed: string }
  | { id: number; result: ToolCallResult }
  | { id: number; error: string }
  | { audit: AuditRecord }
  | { log: { level: LogLevel; message: string; fields?: Record<string, unknown> } };

export interface PoolOptions {
  size: number;
  init: PoolInit;
  logger: Logger;
  /** Writes a worker's audit record (the process's one audit writer). */
  writeAudit: (rec: AuditRecord) => Promise<void>;
  /** Answers in the server's thread when no worker runs. */
  local: ToolCaller;
  /** Files of every index served (sizes each worker's heap). */
  files: number;
  /** What a worker is told once ready, before any call: where each served work tree's change count stands. */
  greeting?: () => WorkerChange[];
}

interface Pending {
  name: string;
  resolve: (r: ToolCallResult) => void;
}

interface Slot {
  n: number;
  worker: Worker;
  ready: boolean;
  pending: Map<number, Pending>;
}

/**
 * Calls one worker runs at once; the rest wait in the pool's queue, first come first served. Each call in flight
 * holds its rows and its answer in the worker's heap: with 200 clients unqueued, a worker held a hundred at once.
 */
export const CALLS_PER_WORKER = 4;

/**
 * Each worker's heap, sized by the files it serves: a young generation kept small (V8 grows it to 32 MiB or more under
 * allocation, per thread), and an old generation of 96 MiB plus 2 KiB a file (the cached rows of the kernel's 78k files
 * fit, with room for the calls in flight). A worker over it is stopped and started again.
 */
export function workerLimits(files: number): ResourceLimits {
  return { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 96 + Math.ceil((files * 2) / 1024) };
}

/** A stopped worker is started again after this long, so one that keeps failing does not spin. */
const RESTART_DELAY_MS = 1_000;

export class ToolPool {
  private readonly slots: (Slot | null)[];
  /** Calls waiting for a worker with room. */
  private readonly queue: { params: ToolCallParams; resolve: (r: ToolCallResult) => void }[] = [];
  private nextId = 0;
  private closing = false;

  private constructor(private readonly o: PoolOptions) {
    this.slots = Array.from({ length: o.size }, () => null);
  }

  /** Starts `size` workers and resolves once each is ready or has failed to start (logged; the rest serve). */
  static async start(o: PoolOptions): Promise<ToolPool> {
    const pool = new ToolPool(o);
    const started = await Promise.all(pool.slots.map((_, n) => pool.startSlot(n)));
    o.logger.log("info", "tool workers ready", { workers: started.filter(Boolean).length, of: o.size });
    return pool;
  }

  /** The tools/call answerer every session of the HTTP server shares. */
  readonly call: ToolCaller = (params) =>
    new Promise((resolve) => {
      this.queue.push({ params, resolve });
      this.dispatch();
    });

  /** Hands waiting calls to the least busy workers with room; with no worker running, the server's thread answers them. */
  private dispatch(): void {
    while (this.queue.length > 0) {
      const live = this.slots.filter((s): s is Slot => s !== null && s.ready);
      if (live.length === 0) {
        for (const q of this.queue.splice(0)) void this.o.local(q.params).then(q.resolve);
        return;
      }
      const slot = live.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      if (slot.pending.size >= CALLS_PER_WORKER) return;
      const { params, resolve } = this.queue.shift()!;
      const id = this.nextId++;
      slot.pending.set(id, { name: params.name, resolve });
      slot.worker.postMessage({ id, params } satisfies ToWorker);
    }
  }

  /** Tells every ready worker of a work-tree change (one starting later hears the state in its greeting). */
  broadcast(change: WorkerChange): void {
    for (const s of this.slots) if (s?.ready) s.worker.postMessage({ change } satisfies ToWorker);
  }

  /** Workers running and ready, for logs and tests. */
  get running(): number {
    return this.slots.filter((s) => s?.ready).length;
  }

  /**
   * Stops worker `n` as a crash would (its calls in flight are answered with an internal error; it is started again):
   * what a worker that runs out of heap does, on demand, for tests.
   */
  async stopWorker(n: number): Promise<void> {
    await this.slots[n]?.worker.terminate();
  }

  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(
      this.slots.map(async (s) => {
        if (!s) return;
        const exited = new Promise<void>((resolve) => s.worker.once("exit", () => resolve()));
        s.worker.postMessage({ close: true } satisfies ToWorker);
        // A worker that does not close its store within a moment is stopped.
        const cut = setTimeout(() => void s.worker.terminate(), 2_000);
        await exited;
        clearTimeout(cut);
      }),
    );
  }

  private startSlot(n: number): Promise<boolean> {
    const { logger } = this.o;
    const worker = moduleWorker(import.meta.url, "serve-worker", {
      workerData: this.o.init,
      resourceLimits: workerLimits(this.o.files),
    });
    const slot: Slot = { n, worker, ready: false, pending: new Map() };
    this.slots[n] = slot;
    return new Promise((resolve) => {
      worker.on("message", (msg: ToPool) => {
        if ("ready" in msg) {
          for (const change of this.o.greeting?.() ?? []) worker.postMessage({ change } satisfies ToWorker);
          slot.ready = true;
          resolve(true);
          this.dispatch();
        } else if ("failed" in msg) {
          logger.log("error", "tool worker failed to start", { worker: n, error: msg.failed });
          void worker.terminate();
        } else if ("log" in msg) {
          logger.log(msg.log.level, msg.log.message, { ...msg.log.fields, worker: n });
        } else if ("audit" in msg) {
          void this.o.writeAudit(msg.audit);
        } else {
          const p = slot.pending.get(msg.id);
          slot.pending.delete(msg.id);
          this.dispatch();
          if (!p) return;
          if ("result" in msg) p.resolve(msg.result);
          else p.resolve(failedCallResult(p.name, toErrorData(new Error(msg.error), logger, p.name)));
        }
      });
      worker.on("error", (err) => logger.log("error", "tool worker failed", { worker: n, error: { name: err.name, message: err.message, stack: err.stack } }));
      worker.once("exit", (code) => {
        const wasReady = slot.ready;
        slot.ready = false;
        if (this.slots[n] === slot) this.slots[n] = null;
        for (const p of slot.pending.values()) {
          p.resolve(failedCallResult(p.name, toErrorData(new Error(`tool worker ${n} stopped (exit code ${code}) before answering`), logger, p.name)));
        }
        slot.pending.clear();
        resolve(false);
        // What waited goes to the other workers, or to the server's thread when none runs.
        this.dispatch();
        if (this.closing) return;
        logger.log("warn", "tool worker stopped", { worker: n, code, restart: wasReady });
        // One that never got ready would fail the same way again: the others (or the server's thread) serve.
        if (wasReady) setTimeout(() => void (this.closing ? null : this.startSlot(n)), RESTART_DELAY_MS).unref();
      });
    });
  }
}
