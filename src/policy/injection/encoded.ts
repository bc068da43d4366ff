/**
 * Encoded payloads: base64, hex and `\x` escapes (decoded when they decode to readable text) and, in a text that
 * mentions rot13, rot13 lines. The decoded text goes through the phrase rules; a payload that reads like an
 * instruction to an agent is flagged as `encoded-instructions` at the payload's span, with the decoded text as
 * excerpt. Candidates, their length and the total decoded are bounded, and each character is in one candidate at
 * most, so the pass is linear.
 */
import type { InstructionLikeMatch } from "../../core/instructions.js";
import { MAX_EXCERPT_LENGTH } from "./rules.js";
import { regionMatch, type TextContext } from "./text.js";

/** Runs of the base64 alphabet (standard and URL-safe) long enough to hold a sentence; hex is a subset. */
const ENCODED_RUN = /[A-Za-z0-9+/_-]{24,8192}={0,2}/g;
const ESCAPED_HEX_RUN = /(?:\\x[0-9a-fA-F]{2}){12,2048}/g;
const HEX_ONLY = /^[0-9a-fA-F]+$/;
const ROT13_HINT = /\brot-?13\b|\bcaesar\b/i;
/** Every pattern of this pass (for the structural linearity check). */
export const ENCODED_PATTERNS: readonly RegExp[] = [ENCODED_RUN, ESCAPED_HEX_RUN, HEX_ONLY, ROT13_HINT];
const MAX_CANDIDATE = 8192;
const MAX_CANDIDATES = 256;
const MAX_DECODED_TOTAL = 64 * 1024;
const MIN_WORDS = 3;
const PRINTABLE = /[\p{L}\p{N}\p{P}\p{S}\p{M} \t\n\r]/u;

/** Whether a decoded text reads like a sentence: valid UTF-8, printable, several words. */
function readable(bytes: Uint8Array): string | null {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
  let printable = 0;
  let spaces = 0;
  for (const ch of text) {
    if (ch === " ") spaces++;
    if (PRINTABLE.test(ch)) printable++;
  }
  return printable >= 0.95 * [...text].length && spaces >= MIN_WORDS - 1 ? text : null;
}

function decodeBase64(s: string): Uint8Array {
  const standard = s.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  return Buffer.from(standard.slice(0, standard.length - (standard.length % 4 === 1 ? 1 : 0)), "base64");
}

const decodeHex = (s: string): Uint8Array => Buffer.from(s.slice(0, s.length - (s.length % 2)), "hex");

/** The readable decodings of one candidate: as hex when it is hex, and as base64. */
function decodings(candidate: string): Array<{ kind: string; text: string }> {
  const out: Array<{ kind: string; text: string }> = [];
  const s = candidate.slice(0, MAX_CANDIDATE);
  if (HEX_ONLY.test(s)) {
    const hex = readable(decodeHex(s));
    if (hex !== null) out.push({ kind: "hex", text: hex });
  }
  const b64 = readable(decodeBase64(s));
  if (b64 !== null) out.push({ kind: "base64", text: b64 });
  return out;
}

const rot13 = (s: string): string =>
  s.replace(/[A-Za-z]/g, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

function decodedExcerpt(kind: string, text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const room = MAX_EXCERPT_LENGTH - kind.length - 14;
  return `[decoded ${kind}: ${JSON.stringify(flat.length > room ? `${flat.slice(0, room - 1)}…` : flat)}]`;
}

/**
 * Payloads in `ctx.text` whose decoded text `isInstruction` accepts (the detector passes its phrase rules).
 */
export function encodedMatches(ctx: TextContext, isInstruction: (decoded: string) => boolean): InstructionLikeMatch[] {
  const { text, work } = ctx;
  const out: InstructionLikeMatch[] = [];
  let candidates = 0;
  let decodedTotal = 0;
  const consider = (start: number, end: number, found: Array<{ kind: string; text: string }>): void => {
    for (const d of found) {
      decodedTotal += d.text.length;
      if (isInstruction(d.text)) {
        out.push(regionMatch(ctx, "encoded-instructions", start, end, start, decodedExcerpt(d.kind, d.text)));
        return;
      }
    }
  };
  work?.add("encoded-instructions", text.length);
  for (const pattern of [ENCODED_RUN, ESCAPED_HEX_RUN]) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null && candidates < MAX_CANDIDATES && decodedTotal < MAX_DECODED_TOTAL; m = pattern.exec(text)) {
      candidates++;
      work?.add("encoded-instructions", Math.min(m[0].length, MAX_CANDIDATE));
      const found = pattern === ESCAPED_HEX_RUN ? readableHex(m[0].replace(/\\x/g, "")) : decodings(m[0]);
      consider(m.index, m.index + m[0].length, found);
    }
  }
  if (ROT13_HINT.test(text)) {
    ctx.lines.forEach((line, i) => {
      if (decodedTotal >= MAX_DECODED_TOTAL || line.split(/\s+/, MIN_WORDS + 1).length < MIN_WORDS) return;
      const start = ctx.lineStarts[i] ?? 0;
      work?.add("encoded-instructions", line.length);
      consider(start, start + line.length, [{ kind: "rot13", text: rot13(line) }]);
    });
  }
  return out;
}

function readableHex(hex: string): Array<{ kind: string; text: string }> {
  const text = readable(decodeHex(hex.slice(0, MAX_CANDIDATE)));
  return text === null ? [] : [{ kind: "hex", text }];
}
