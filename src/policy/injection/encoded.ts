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
/**
 * The same runs, found without retrying every position of a shorter word: a run starts after a character outside
 * the alphabet (consumed, the run is group 1) or at the start of the text, or right where the previous match ended
 * (`CHUNK_AT`: after padding, or the next chunk of a run longer than 8192).
 */
const RUN_START = /(?:^|[^A-Za-z0-9+/_-])([A-Za-z0-9+/_-]{24,8192}={0,2})/g;
const CHUNK_AT = /[A-Za-z0-9+/_-]{24,8192}={0,2}/y;
const ESCAPED_HEX_RUN = /(?:\\x[0-9a-fA-F]{2}){12,2048}/g;
const HEX_ONLY = /^[0-9a-fA-F]+$/;
const ROT13_HINT = /\brot-?13\b|\bcaesar\b/i;
/** Every pattern of this pass (for the structural linearity check). */
export const ENCODED_PATTERNS: readonly RegExp[] = [ENCODED_RUN, RUN_START, CHUNK_AT, ESCAPED_HEX_RUN, HEX_ONLY, ROT13_HINT];
const MAX_CANDIDATE = 8192;
const MAX_CANDIDATES = 256;
const MAX_DECODED_TOTAL = 64 * 1024;
const MIN_WORDS = 3;
const PRINTABLE = /[\p{L}\p{N}\p{P}\p{S}\p{M} \t\n\r]/u;

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const SPACE = 0x20;

/** Whether `bytes` hold at least `n` spaces (a space is byte 0x20 in UTF-8, and no other character holds that byte). */
function hasSpaces(bytes: Uint8Array, n: number): boolean {
  let found = 0;
  for (let i = bytes.indexOf(SPACE); i >= 0 && found < n; i = bytes.indexOf(SPACE, i + 1)) found++;
  return found >= n;
}

/** Whether a decoded text reads like a sentence: valid UTF-8, printable, several words. */
function readable(bytes: Uint8Array, fast: boolean): string | null {
  // Bytes without enough spaces cannot pass the word count below: spare the decoding (and its exception).
  if (fast && !hasSpaces(bytes, MIN_WORDS - 1)) return null;
  let text: string;
  try {
    text = UTF8.decode(bytes);
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
function decodings(candidate: string, fast: boolean): Array<{ kind: string; text: string }> {
  const out: Array<{ kind: string; text: string }> = [];
  const s = candidate.slice(0, MAX_CANDIDATE);
  if (HEX_ONLY.test(s)) {
    const hex = readable(decodeHex(s), fast);
    if (hex !== null) out.push({ kind: "hex", text: hex });
  }
  const b64 = readable(decodeBase64(s), fast);
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

/** A run of the base64 alphabet: where it starts, and its text. */
interface Run {
  index: number;
  text: string;
}

/**
 * The matches of ENCODED_RUN in `text`, in order. With `fast`, the same matches found by RUN_START and CHUNK_AT: a
 * match can start only after a character outside the alphabet or where the previous one ended (anywhere else, the
 * run from one character earlier would have matched first).
 */
function* encodedRuns(text: string, fast: boolean): Generator<Run> {
  const runs = fast ? RUN_START : ENCODED_RUN;
  runs.lastIndex = 0;
  for (let m = runs.exec(text); m !== null; m = runs.exec(text)) {
    const run = m[1] ?? m[0];
    yield { index: m.index + m[0].length - run.length, text: run };
    if (!fast) continue;
    CHUNK_AT.lastIndex = runs.lastIndex;
    for (let c = CHUNK_AT.exec(text); c !== null; c = CHUNK_AT.exec(text)) {
      yield { index: c.index, text: c[0] };
      runs.lastIndex = CHUNK_AT.lastIndex;
    }
  }
}

/**
 * Payloads in `ctx.text` whose decoded text `isInstruction` accepts (the detector passes its phrase rules). `fast`
 * (the default) takes the cheap ways to the same result; without it, every candidate is decoded the plain way.
 */
export function encodedMatches(ctx: TextContext, isInstruction: (decoded: string) => boolean, fast = true): InstructionLikeMatch[] {
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
  const candidate = (m: Run, found: Array<{ kind: string; text: string }>): void => {
    candidates++;
    work?.add("encoded-instructions", Math.min(m.text.length, MAX_CANDIDATE));
    consider(m.index, m.index + m.text.length, found);
  };
  for (const m of encodedRuns(text, fast)) {
    if (candidates >= MAX_CANDIDATES || decodedTotal >= MAX_DECODED_TOTAL) break;
    candidate(m, decodings(m.text, fast));
  }
  ESCAPED_HEX_RUN.lastIndex = 0;
  for (let m = ESCAPED_HEX_RUN.exec(text); m !== null && candidates < MAX_CANDIDATES && decodedTotal < MAX_DECODED_TOTAL; m = ESCAPED_HEX_RUN.exec(text)) {
    candidate({ index: m.index, text: m[0] }, readableHex(m[0].replace(/\\x/g, ""), fast));
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

function readableHex(hex: string, fast: boolean): Array<{ kind: string; text: string }> {
  const text = readable(decodeHex(hex.slice(0, MAX_CANDIDATE)), fast);
  return text === null ? [] : [{ kind: "hex", text }];
}
