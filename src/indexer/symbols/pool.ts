import type { Worker } from "node:worker_threads";
import { moduleWorker } from "../../core/module-worker.js";
import { extractLexical } from "./lexical.js";
import { DEFAULT_PARSE_TIMEOUT_MS, SymbolExtractor } from "./extract.js";
import type { Extraction } from "../../core/symbols.js";
import { fileTerms, type FileTerms } from "../../core/terms.js";

export interface ExtractRequest {
  id: number;
  language: string | null;
  path: string;
  text: string;
  timeoutMs: number;
}

/** A parsed file's symbols and references, and its ranking terms (from its text and the names it defines). */
export interface Analysis {
  extraction: Extraction;
  terms: FileTerms;
}

export type ExtractResponse = { id: number; analysis: Analysis; error?: undefined } | { id: number; error: string; analysis?: undefined };

/**
 * Terms are computed where the extraction ran: in a worker, they cost the main thread (which reads, hashes and
 * writes the store) nothing.
 */
export function analysisOf(path: string, text: string, extraction: Extraction): Analysis {
  return { extraction, terms: fileTerms(path, text, extraction.symbols.map((s) => s.name)) };
}

interface Slot {
  worker: Worker;
  alive: boolean;
  pending: Map<number, (a: Analysis) => void>;
  fallbacks: Map<number, { path: string; text: string }>;
}

/** A lexical extraction marked failed, for a file whose worker failed or died. */
function failedAnalysis(path: string, text: string, why: string): Analysis {
  return analysisOf(path, text, { ...extractLexical(text), status: "failed", detail: why });
}

const WARM_UP_TEXT = 'total = compute(first, second[1], "text", 42);\n'.repeat(600);

/**
 * Symbol extraction (and the parsed file's ranking terms) off the main thread: `size` worker threads each holding
 * their own tree-sitter runtime, fed least-busy first. Size 0 extracts in-process (small repositories, tests). A
 * worker that dies turns its pending files into lexical extractions marked failed, never a failed index.
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

  /** A file's extraction and ranking terms. */
  async analyze(language: string | null, path: string, text: string): Promise<Analysis> {
    if (this.local) return analysisOf(path, text, await this.local.extract(language, path, text, this.timeoutMs));
    const live = this.slots.filter((s) => s.alive);
    if (live.length === 0) return failedAnalysis(path, text, "no symbol worker is running");
    const slot = live.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    return new Promise((resolve) => {
      slot.pending.set(id, resolve);
      slot.fallbacks.set(id, { path, text });
      slot.worker.postMessage({ id, language, path, text, timeoutMs: this.timeoutMs } satisfies ExtractRequest);
    });
  }

  /**
   * Readies the in-process extractor for these languages ahead of their first file (grammar, compiled queries, one
   * parse of generated text): what an idle server does so that the first edit it sees costs what the file costs.
   */
  async warm(languages: readonly string[]): Promise<void> {
    if (!this.local) return;
    for (const language of languages) {
      await this.local.prepare(language);
      // Enough text that the WebAssembly parser's hot functions reach their optimized tier (a first parse of the
      // kernel's fork.c took 93 ms against ~35 ms later); a line most grammars read as an expression statement.
      await this.analyze(language, "warm-up", WARM_UP_TEXT);
    }
  }

  /** The languages whose grammar the in-process extractor has loaded (none for a pool of workers). */
  readied(): string[] {
    return this.local?.loadedLanguages() ?? [];
  }

  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}

function startWorker(): Promise<Slot> {
  const worker = moduleWorker(import.meta.url, "worker");
  const slot: Slot = { worker, alive: true, pending: new Map(), fallbacks: new Map() };
  const settle = (id: number, a: Analysis): void => {
    slot.pending.get(id)?.(a);
    slot.pending.delete(id);
    slot.fallbacks.delete(id);
  };
  const fail = (id: number, why: string): void => {
    const f = slot.fallbacks.get(id) ?? { path: "", text: "" };
    settle(id, failedAnalysis(f.path, f.text, why));
  };
  const failAll = (why: string): void => {
    slot.alive = false;
    for (const id of [...slot.pending.keys()]) fail(id, why);
  };
  return new Promise((resolve, reject) => {
    worker.on("message", (msg: ExtractResponse | { ready: true }) => {
      if ("ready" in msg) {
        resolve(slot);
        return;
      }
      if (msg.analysis) settle(msg.id, msg.analysis);
      else fail(msg.id, msg.error ?? "extraction failed");
    });
    worker.once("error", (err) => {
      failAll(`symbol worker failed: ${err.message}`);
      reject(err);
    });
    worker.once("exit", () => failAll("symbol worker exited"));
  });
}
