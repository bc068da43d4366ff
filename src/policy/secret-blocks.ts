/**
 * Multi-line secrets: private key blocks (PEM, OpenSSH, PGP, SSH2) and the values of Kubernetes `Secret`
 * manifests. Both keep the text's line count (a redacted block keeps its newlines). Scanned with `indexOf` and
 * per-line checks, so an unterminated block cannot cause backtracking.
 */
import { REDACTED, type RedactionReason } from "./redaction-reasons.js";

type Bump = (reason: RedactionReason) => void;

/** `-----BEGIN <label> PRIVATE KEY-----` (PEM, OpenSSH, PGP's `... KEY BLOCK`) and SSH2's `---- BEGIN ... ----`. */
export const PRIVATE_KEY_BEGIN = String.raw`-{4,5}[^\S\r\n]?BEGIN ([A-Z0-9 _\-]{0,40}PRIVATE KEY(?: BLOCK)?)[^\S\r\n]?-{4,5}`;

/** Body replacement that keeps the block's line count. */
function redactedBody(body: string): string {
  const newlines = body.split("\n").length - 1;
  if (newlines === 0) return REDACTED;
  return `\n${REDACTED}${"\n".repeat(newlines - 1)}`;
}

export function redactPrivateKeys(text: string, bump: Bump): string {
  if (!text.includes("PRIVATE KEY")) return text;
  let out = "";
  let pos = 0;
  const begin = new RegExp(PRIVATE_KEY_BEGIN, "g");
  for (let m = begin.exec(text); m !== null; m = begin.exec(text)) {
    const bodyStart = m.index + m[0].length;
    const endWords = `END ${m[1] ?? ""}`;
    const endAt = text.indexOf(endWords, bodyStart);
    let bodyEnd = endAt < 0 ? text.length : endAt;
    while (bodyEnd > bodyStart && (text[bodyEnd - 1] === "-" || text[bodyEnd - 1] === " ")) bodyEnd--;
    const body = text.slice(bodyStart, bodyEnd);
    out += text.slice(pos, bodyStart);
    if (body.trim() === REDACTED || body.trim() === "") {
      out += body;
    } else {
      out += redactedBody(body);
      bump("private-key");
    }
    pos = bodyEnd;
    begin.lastIndex = endAt < 0 ? text.length : endAt + endWords.length;
  }
  return out + text.slice(pos);
}

// ---------------------------------------------------------------------------------------------------------------
// Kubernetes Secret manifests: every value under `data:` / `stringData:` of a document whose `kind` is `Secret`.

const KIND_SECRET = /^kind:[^\S\r\n]{0,16}["']?Secret["']?[^\S\r\n]{0,16}(?:#.{0,256})?\r?$/;
const DATA_KEY = /^(?:data|stringData):[^\S\r\n]{0,16}(?:#.{0,256})?\r?$/;
/** A slice's line-number gutter (` 12| `), kept as is. */
const GUTTER = /^[^\S\r\n]{0,12}\d{1,9}\|/;
/** Placeholders that carry no secret: templated, empty. */
const EMPTY_OR_TEMPLATED = /^(?:""|''|\{\{.{0,256}\}\}|\$\{.{0,256}\}|\[REDACTED\])?\r?$/;

interface YamlLine {
  gutter: string;
  indent: number;
  /** The line after gutter and indentation, without a trailing "\r". */
  body: string;
  /** "\r" for a CRLF line, kept when the line is rewritten. */
  cr: string;
}

function parseLine(line: string): YamlLine {
  const gutter = GUTTER.exec(line)?.[0] ?? "";
  const cr = line.endsWith("\r") ? "\r" : "";
  const rest = line.slice(gutter.length, line.length - cr.length);
  const body = rest.trimStart();
  return { gutter, indent: rest.length - body.length, body, cr };
}

/** Documents of a YAML stream, as [start, end) line ranges. */
function documents(lines: readonly YamlLine[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  lines.forEach((line, i) => {
    if (line.indent === 0 && /^(?:---|\.\.\.)(?:\s|$)/.test(line.body)) {
      out.push([start, i]);
      start = i + 1;
    }
  });
  out.push([start, lines.length]);
  return out;
}

/** Redacts the values under the `data:` block at line `at`; returns the index of the first line after the block. */
function redactDataBlock(lines: string[], at: number, end: number, bump: Bump): number {
  const dataIndent = parseLine(lines[at] ?? "").indent;
  let i = at + 1;
  while (i < end) {
    const line = parseLine(lines[i] ?? "");
    if (line.body === "") {
      i++;
      continue;
    }
    if (line.indent <= dataIndent) break;
    const colon = line.body.indexOf(":");
    const value = colon < 0 ? "" : line.body.slice(colon + 1).trim();
    i++;
    if (colon < 0) continue;
    if (value.startsWith("|") || value.startsWith(">")) {
      let redactedLines = 0;
      for (; i < end; i++) {
        const inner = parseLine(lines[i] ?? "");
        if (inner.body !== "" && inner.indent <= line.indent) break;
        if (inner.body === "" || inner.body === REDACTED) continue;
        lines[i] = `${inner.gutter}${" ".repeat(inner.indent)}${REDACTED}${inner.cr}`;
        redactedLines++;
      }
      if (redactedLines > 0) bump("kubernetes-secret");
    } else if (!EMPTY_OR_TEMPLATED.test(value.replace(/\s#.*$/, ""))) {
      lines[i - 1] = `${line.gutter}${" ".repeat(line.indent)}${line.body.slice(0, colon)}: ${REDACTED}${line.cr}`;
      bump("kubernetes-secret");
    }
  }
  return i;
}

export function redactKubernetesSecrets(text: string, bump: Bump): string {
  if (!text.includes("Secret") || !/(?:^|\n)[^\S\r\n]{0,64}(?:\d{1,9}\|[^\S\r\n]{0,64})?(?:data|stringData):/.test(text)) return text;
  const lines = text.split("\n");
  const parsed = lines.map(parseLine);
  for (const [start, end] of documents(parsed)) {
    if (!parsed.slice(start, end).some((l) => KIND_SECRET.test(l.body))) continue;
    for (let i = start; i < end; ) {
      i = DATA_KEY.test(parsed[i]?.body ?? "") ? redactDataBlock(lines, i, end, bump) : i + 1;
    }
  }
  return lines.join("\n");
}
