/**
 * A bound on a long-running thread's heap that needs no flag from the operator. Under load V8 lets a heap grow to
 * several times what is live before it runs a full collection (`serve --http` with 200 sessions: ~26 MiB live in a
 * 130–150 MiB heap), and what it has grown to stays resident. The governor looks at the heap once per interval and,
 * when the committed heap has passed both a floor and a multiple of what was live after its last collection, runs a
 * full collection itself; V8 then gives the emptied pages back. The limit follows what is live, so a heap that really
 * needs more is collected less often, never refused. The heap's own limit (`--max-old-space-size`) can only be set
 * when the process starts; this needs nothing at start.
 */
import { getHeapStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

export interface HeapGovernorOptions {
  /** How often the heap is looked at (default 1 s). */
  everyMs?: number;
  /** Committed heap below this is never collected by the governor (default 64 MiB). */
  floorBytes?: number;
  /** Collect once the committed heap is this many times what was live after the last collection (default 2). */
  factor?: number;
}

export interface HeapGovernor {
  /** Collections the governor has run. */
  readonly collections: () => number;
  /** Looks at the heap now, as the timer does; true when it collected. */
  readonly check: () => boolean;
  readonly stop: () => void;
}

const MIB = 1024 * 1024;

/**
 * The engine's full collection, without `--expose-gc` at start: the flag is turned on for as long as it takes a fresh
 * context to hand over its `gc` function, then off again, so no code loaded later sees a `gc` global it did not ask for.
 */
export function fullCollection(): () => void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (typeof own === "function") return own;
  setFlagsFromString("--expose-gc");
  try {
    return runInNewContext("gc") as () => void;
  } finally {
    setFlagsFromString("--no-expose-gc");
  }
}

/** Starts governing this thread's heap; the timer never keeps the process alive. */
export function governHeap(o: HeapGovernorOptions = {}): HeapGovernor {
  const floor = o.floorBytes ?? 64 * MIB;
  const factor = o.factor ?? 2;
  const gc = fullCollection();
  let live = getHeapStatistics().used_heap_size;
  let runs = 0;
  const check = (): boolean => {
    const committed = getHeapStatistics().total_heap_size;
    if (committed < floor || committed < live * factor) return false;
    gc();
    runs++;
    live = getHeapStatistics().used_heap_size;
    return true;
  };
  const timer = setInterval(check, o.everyMs ?? 1000);
  timer.unref();
  return { collections: () => runs, check, stop: () => clearInterval(timer) };
}
