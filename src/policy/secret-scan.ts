/**
 * The index-time credential scan: which lines of a file hold a credential of a known format, so the indexer marks
 * the whole file secret-suspect (its text is then neither indexed nor served). It runs those of the redactor's rules
 * that cover secretlint's recommended preset, the detector the indexer used before (the mapping is
 * `test/fixtures/secret-formats/coverage.json`): private key blocks, the big providers' token formats and
 * credentials in URLs. Withholding a whole file is for the formats that leave no doubt; every other rule still
 * redacts every answer on the way out (./redact.ts).
 *
 * Documented example credentials (AWS's `AKIAIOSFODNN7EXAMPLE` and its kind, which say EXAMPLE in the value) do
 * not make a file suspect: they are what documentation shows.
 */
import { lineIndexOf, lineStartsOf } from "./injection/text.js";
import { COMPILED_FORMATS, tokenSecret } from "./redact.js";
import { redactPrivateKeys } from "./secret-blocks.js";
import { hintedFormats } from "./secret-formats/hints.js";
import { redactUrlCredentials } from "./url-credentials.js";

export interface CredentialFinding {
  /** The rule that found it: an id of the redactor's rules (`REDACTION_RULES`). */
  rule: string;
  /** 1-based line where it starts. */
  line: number;
}

/** The token formats the scan runs (the rules that cover a secretlint detector; the test checks the list). */
const SCANNED_FORMAT_IDS = new Set([
  "anthropic-key",
  "aws-access-key-id",
  "aws-secret-access-key",
  "databricks-token",
  "docker-token",
  "figma-token",
  "gcp-service-account-key-id",
  "github-app-installation-token",
  "github-classic-token",
  "github-fine-grained-pat",
  "github-oauth-url-user",
  "gitlab-token",
  "grafana-token",
  "groq-key",
  "huggingface-token",
  "linear-api-key",
  "notion-token",
  "npm-token",
  "npmrc-auth",
  "onepassword-token",
  "openai-key",
  "openai-scoped-key",
  "sendgrid-key",
  "shopify-token",
  "slack-token",
  "slack-webhook",
  "vault-token",
  "vercel-token",
]);

/** Those formats' compiled patterns, with their index in the token formats (the hint flags are indexed by it). */
const SCANNED_FORMATS = COMPILED_FORMATS.flatMap((c, index) => (SCANNED_FORMAT_IDS.has(c.format.id) ? [{ ...c, index }] : []));

/** Every rule id the scan reports. */
export const SCANNED_RULES: readonly string[] = ["private-key-block", ...SCANNED_FORMATS.map((f) => f.format.id), "url-credentials"];

const EXAMPLE = /EXAMPLE/;

/** The first line of each run of lines a whole-text pass changed (the passes keep the line count). */
function changedRunStarts(before: string, after: string): number[] {
  if (before === after) return [];
  const a = before.split("\n");
  const b = after.split("\n");
  const out: number[] = [];
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && (i === 0 || a[i - 1] === b[i - 1]) && !EXAMPLE.test(a[i]!)) out.push(i + 1);
  return out;
}

export function findCredentials(text: string): CredentialFinding[] {
  const found = new Map<string, CredentialFinding>();
  const add = (rule: string, line: number) => found.set(`${line}\u0000${rule}`, { rule, line });
  const noop = () => {};
  for (const line of changedRunStarts(text, redactPrivateKeys(text, noop))) add("private-key-block", line);
  const hinted = hintedFormats(text.toLowerCase());
  let starts: number[] | null = null;
  for (const { format, index, re } of SCANNED_FORMATS) {
    if (hinted[index] !== 1) continue;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      const hit = tokenSecret(format, m[0], typeof m[1] === "string" ? m[1] : "", text, m.index);
      if (hit === null || EXAMPLE.test(hit.secret)) continue;
      starts ??= lineStartsOf(text.split("\n"));
      add(format.id, lineIndexOf(starts, hit.at) + 1);
    }
  }
  if (text.includes("://")) for (const line of changedRunStarts(text, redactUrlCredentials(text, noop))) add("url-credentials", line);
  return [...found.values()].sort((a, b) => a.line - b.line || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
}

/** Whether a text holds a credential the scan reports (a file with one is secret-suspect). */
export function holdsCredential(text: string): boolean {
  return findCredentials(text).length > 0;
}
