import { Worker, type WorkerOptions } from "node:worker_threads";

/**
 * A worker thread running the module `name` (without extension) beside the module at `here` (its `import.meta.url`):
 * the compiled .js next to it, or, when `here` is TypeScript source (tests, benchmarks run with tsx), a small loader
 * that registers the TypeScript loader inside the worker before importing the .ts module.
 */
export function moduleWorker(here: string, name: string, options: WorkerOptions = {}): Worker {
  if (!here.endsWith(".ts")) return new Worker(new URL(`./${name}.js`, here), options);
  const source = new URL(`./${name}.ts`, here).href;
  const loader = `import("tsx/esm/api").then((api) => { api.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(loader, { ...options, eval: true });
}
