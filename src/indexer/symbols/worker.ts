import { parentPort } from "node:worker_threads";
import { SymbolExtractor } from "./extract.js";
import { analysisOf, type ExtractRequest, type ExtractResponse } from "./pool.js";

/** Worker thread: one extractor (parsers, grammars, queries) serving requests in order, with each file's terms. */
async function main(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error("symbol worker must run in a worker thread");
  const extractor = await SymbolExtractor.create();
  port.on("message", (req: ExtractRequest) => {
    extractor
      .extract(req.language, req.path, req.text, req.timeoutMs)
      .then((extraction) => port.postMessage({ id: req.id, analysis: analysisOf(req.path, req.text, extraction) } satisfies ExtractResponse))
      .catch((err: unknown) =>
        port.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) } satisfies ExtractResponse),
      );
  });
  port.postMessage({ ready: true });
}

void main();
