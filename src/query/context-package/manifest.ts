import { createHash } from "node:crypto";
import { canonicalJson } from "../instructions/hash.js";

function sha256(text: string): string {
  return `sha256:${createHash("sha256").update(text).digest("hex")}`;
}

/** Lines startLine..endLine (1-based, inclusive) of a text. */
export function linesOf(content: string, startLine: number, endLine: number): string[] {
  return content.split("\n").slice(Math.max(0, startLine - 1), Math.max(0, endLine));
}

/** Hash of one span of a file: lines joined by `\n`, so line endings elsewhere in the file do not matter. */
export function spanHash(content: string, startLine: number, endLine: number): string {
  return sha256(linesOf(content, startLine, endLine).join("\n"));
}

/** Stable hash of any JSON-like value (keys sorted at every level). */
export function valueHash(value: unknown): string {
  return sha256(canonicalJson(value));
}
