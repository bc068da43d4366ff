import { Worker } from "node:worker_threads";
import { extractLexical } from "./lexical.js";
import { DEFAULT_PARSE_TIMEOUT_MS, SymbolExtractor } from "./extract.js";
import type { Extraction } from "./types.js";

export interface ExtractRequest {
  id: number;
  language: string | null;
  path: string;
  text: string;
  timeoutMs: number;
}

export type ExtractResponse = { id: number; extraction: Extraction; error?: undefined } | { id: number; error: string; extraction?: undefined };

interface Slot {
  worker: Worker;
  alive: boolean;
  pending: Map<number, (e: Extraction) => void>;
  fallbackTexts: Map<number, string>;
}

/**
 * Symbol extraction off the main thread: `size` worker threads each holding their own tree-sitter runtime, fed
 * least-busy first. Size 0 extracts in-process (small repositories, tests). A worker that dies turns its pending
 * files into lexical extractions marked failed, never a failed index.
 */
export class ExtractionPool {
  private nextId = 0;

  private constructor(
    private readonly slots: Slot[],
    private readonly local: SymbolExtractor | null,
    private readonly timeoutMs: number,
  ) {}

  static async create(size: number, timeoutMs = DEFAULT_PARSE_TIMEOUT_MS): Promise<ExtractionPool> {
    if (size <= 0) return new ExtractionPool([], await SymbolExtractor.create(), timeoutMs);
    const slots = await Promise.all(Array.from({ length: size }, () => startWorker()));
    return new ExtractionPool(slots, null, timeoutMs);
  }

  extract(language: string | null, path: string, text: string): Promise<Extraction> {
    if (this.local) return this.local.extract(language, path, text, this.timeoutMs);
    const live = this.slots.filter((s) => s.alive);
    if (live.length === 0) return Promise.resolve({ ...extractLexical(text), status: "failed", detail: "no symbol worker is running" });
    const slot = live.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve) => {
      slot.pending.set(id, resolve);
      slot.fallbackTexts.set(id, text);
      slot.worker.postMessage({ id, language, path, text, timeoutMs: this.timeoutMs } satisfies ExtractRequest);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

/**
 * The worker entry: the compiled .js next to this file, or, when this file runs as TypeScript source (tests), a
 * small loader that registers the TypeScript loader inside the worker before importing worker.ts.
 */
function createWorker(): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./worker.js", import.meta.url));
  const source = new URL("./worker.ts", import.meta.url).href;
  const loader = `import("tsx/esm/api").then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(loader, { eval: true });
}

function startWorker(): Promise<Slot> {
  const worker = createWorker();
  const slot: Slot = { worker, alive: true, pending: new Map(), fallbackTexts: new Map() };
  const settle = (id: number, e: Extraction): void => {
    slot.pending.get(id)?.(e);
    slot.pending.delete(id);
    slot.fallbackTexts.delete(id);
  };
  const failAll = (why: string): void => {
    slot.alive = false;
    for (const id of [...slot.pending.keys()]) settle(id, { ...extractLexical(slot.fallbackTexts.get(id) ?? ""), status: "failed", detail: why });
  };
  return new Promise((resolve, reject) => {
    worker.on("message", (msg: ExtractResponse | { ready: true }) => {
      if ("ready" in msg) {
        resolve(slot);
        return;
      }
      if (msg.extraction) settle(msg.id, msg.extraction);
      else settle(msg.id, { ...extractLexical(slot.fallbackTexts.get(msg.id) ?? ""), status: "failed", detail: msg.error ?? "extraction failed" });
    });
    worker.once("error", (err) => {
      failAll(`symbol worker failed: ${err.message}`);
      reject(err);
    });
    worker.once("exit", () => failAll("symbol worker exited"));
  });
}
