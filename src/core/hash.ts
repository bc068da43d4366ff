import { createHash } from "node:crypto";

/** Content hashes and line counts: how every layer names and measures a file's bytes. */

export function sha256(data: Uint8Array | string): string {
  return `sha256:${createHash("sha256").update(data).digest("hex")}`;
}

/** Newline count, plus one for a last line without a trailing newline. */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 0;
  let i = text.indexOf("\n");
  while (i !== -1) {
    n += 1;
    i = text.indexOf("\n", i + 1);
  }
  return text.endsWith("\n") ? n : n + 1;
}
