import assert from "node:assert/strict";
import { getHeapStatistics } from "node:v8";
import { test } from "node:test";
import { fullCollection, governHeap } from "../src/cli/heap-governor.js";

test("the full collection is had without --expose-gc, and no gc global is left for code loaded later", () => {
  const gc = fullCollection();
  assert.equal(typeof gc, "function");
  gc();
  assert.equal((globalThis as { gc?: unknown }).gc, undefined);
});

test("the governor collects once the committed heap passes its floor and a multiple of what was live, and not before", () => {
  const idle = governHeap({ everyMs: 60_000, floorBytes: getHeapStatistics().total_heap_size * 4 });
  try {
    assert.equal(idle.check(), false, "a heap under the floor is left alone");
    assert.equal(idle.collections(), 0);
  } finally {
    idle.stop();
  }
  const g = governHeap({ everyMs: 60_000, floorBytes: 1, factor: 1 });
  try {
    // Garbage that lives long enough to reach old space, then let go of.
    let keep: string[][] | null = Array.from({ length: 64 }, (_, i) => Array.from({ length: 20_000 }, (_, j) => `row ${i}:${j}`));
    const held = getHeapStatistics().used_heap_size;
    keep = null;
    assert.equal(keep, null);
    assert.equal(g.check(), true, "a heap over its floor and over factor × live is collected");
    assert.equal(g.collections(), 1);
    assert.ok(getHeapStatistics().used_heap_size < held, "the collection freed the garbage");
  } finally {
    g.stop();
  }
  const patient = governHeap({ everyMs: 60_000, floorBytes: 1, factor: 1000 });
  try {
    assert.equal(patient.check(), false, "a heap under factor × live is left alone");
  } finally {
    patient.stop();
  }
});
