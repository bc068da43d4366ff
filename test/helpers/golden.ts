import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";

const GOLDEN_DIR = fileURLToPath(new URL("../golden/", import.meta.url));

export const ACCEPT_GOLDEN = "UPDATE_GOLDEN=1 npm test";

/**
 * Compares a value with its checked-in expectation under test/golden/. A difference fails with a line diff and the
 * command that accepts the new output after review.
 */
export function assertGolden(name: string, actual: unknown): void {
  const file = `${GOLDEN_DIR}${name}.json`;
  const text = `${JSON.stringify(actual, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === "1") {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) assert.fail(`golden file test/golden/${name}.json is missing; review and accept with: ${ACCEPT_GOLDEN}`);
  const expected = readFileSync(file, "utf8");
  if (expected === text) return;
  const a = expected.split("\n");
  const b = text.split("\n");
  const diff: string[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) diff.push(`line ${i + 1}:\n  - ${a[i] ?? "(none)"}\n  + ${b[i] ?? "(none)"}`);
    if (diff.length >= 20) break;
  }
  assert.fail(`golden test/golden/${name}.json differs:\n${diff.join("\n")}\naccept with: ${ACCEPT_GOLDEN}`);
}
