/**
 * Secret redaction: runs on every string that leaves the server. Secret-looking VALUES become `[REDACTED]`; the
 * surrounding text (key names, quotes, headers, a URL's host) stays so the agent still sees the shape of the code.
 *
 * In order: private key blocks and Kubernetes Secret manifests (`secret-blocks.ts`), provider token formats
 * (`secret-formats/`), credentials in URLs, secrets named by their key (`secret-assignments.ts`: provider keys,
 * secret-named keys, random values under credential keys) and random-looking values in configuration lines.
 * Specific token formats favour recall; the key-based rules favour precision.
 *
 * Literal pre-checks keep ordinary text cheap: a token format runs only where one of its hints occurs (all found in
 * one pass, `secret-formats/hints.ts`), the keyed pass only where a credential word or a provider's name does. They
 * skip work and never change a result: `RedactOptions.prefilter: false` turns them off, and the tests compare.
 *
 * Guarantees, each tested: every pattern run over a whole text is linear (bounded repetitions, none nested); the
 * line count is preserved; redacting already-redacted text changes nothing and reports nothing; every redaction
 * is counted under a stable reason id (`REDACTION_REASONS`).
 */
import { ASSIGNMENT, ENTROPY_LINE, SECRETISH_KEY, redactAssignments, redactHighEntropy } from "./secret-assignments.js";
import { PRIVATE_KEY_BEGIN, redactKubernetesSecrets, redactPrivateKeys } from "./secret-blocks.js";
import { HINT_PATTERN, hintedFormats } from "./secret-formats/hints.js";
import { TOKEN_FORMATS, type TokenFormat } from "./secret-formats/index.js";
import { PROVIDER_KEYS, PROVIDER_NAME, PROVIDER_WORD } from "./secret-providers.js";
import { REDACTED, REDACTION_REASONS, type RedactionReason } from "./redaction-reasons.js";
import { URL_CREDENTIALS, redactUrlCredentials } from "./url-credentials.js";

export { REDACTED, REDACTION_REASONS, type RedactionReason };

export interface RedactionCount {
  reason: string;
  count: number;
}

export interface RedactResult {
  text: string;
  redacted: boolean;
  redactions: RedactionCount[];
}

/** No secret format is shorter than this. */
const MIN_SECRET_TEXT = 8;

// ---------------------------------------------------------------------------------------------------------------

export interface CompiledFormat {
  format: TokenFormat;
  re: RegExp;
}

/** Every token format's pattern, compiled once (global: callers start each scan at lastIndex 0). */
export const COMPILED_FORMATS: readonly CompiledFormat[] = TOKEN_FORMATS.map((format) => ({
  format,
  re: new RegExp(format.source, format.ignoreCase === true ? "gi" : "g"),
}));

/**
 * What a format's match at `offset` of `text` holds as a secret: the match past its group 1 (`kept`, a key or a
 * URL's host, which opens the match), and where that starts; null when the format does not take it (already
 * redacted, or its own check refuses it).
 */
export function tokenSecret(format: TokenFormat, match: string, kept: string, text: string, offset: number): { secret: string; at: number } | null {
  const secret = match.slice(kept.length);
  const at = offset + kept.length;
  if (secret.includes(REDACTED) || (format.accept !== undefined && !format.accept(secret, text, at))) return null;
  return { secret, at };
}

function redactTokenFormat(text: string, c: CompiledFormat, bump: (r: RedactionReason) => void): string {
  c.re.lastIndex = 0;
  return text.replace(c.re, (...args: unknown[]) => {
    const match = args[0] as string;
    const kept = typeof args[1] === "string" ? args[1] : "";
    const offset = args.find((a, i) => i > 0 && typeof a === "number") as number;
    if (tokenSecret(c.format, match, kept, text, offset) === null) return match;
    bump(c.format.reason);
    return kept + REDACTED;
  });
}

/** Runs the token formats in order; with `prefilter`, only those with a hint in `lower` (the text, lower-cased). */
function redactTokenFormats(text: string, lower: string, prefilter: boolean, bump: (r: RedactionReason) => void): string {
  const hinted = prefilter ? hintedFormats(lower) : undefined;
  let out = text;
  COMPILED_FORMATS.forEach((c, i) => {
    if (hinted === undefined || hinted[i] === 1) out = redactTokenFormat(out, c, bump);
  });
  return out;
}

export interface RedactOptions {
  /**
   * True (the default): rules run only on texts that hold their literal pre-conditions (a format's hints, a
   * credential word or provider name in a key). False runs every rule on every text: the reference the tests hold
   * the pre-checks to, since a pre-check may skip work but never change a result.
   */
  prefilter?: boolean;
}

/** Replaces secret-looking values in `text` with `[REDACTED]` and says how many of each reason it replaced. */
export function redactText(text: string, options: RedactOptions = {}): RedactResult {
  if (text.length < MIN_SECRET_TEXT) return { text, redacted: false, redactions: [] };
  const prefilter = options.prefilter !== false;
  const counts = new Map<RedactionReason, number>();
  let bumps = 0;
  const bump = (reason: RedactionReason): void => {
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
    bumps++;
  };

  let out = redactPrivateKeys(text, bump);
  out = redactKubernetesSecrets(out, bump);
  const lower = out.toLowerCase();
  const bumpsAtLower = bumps;
  out = redactTokenFormats(out, lower, prefilter, bump);
  out = redactUrlCredentials(out, bump);
  // Every change bumps a count: with none since, `lower` still is the text lower-cased.
  out = redactAssignments(out, bumps === bumpsAtLower ? lower : out.toLowerCase(), bump, prefilter);
  out = redactHighEntropy(out, bump);

  const redactions =
    counts.size === 0 ? [] : REDACTION_REASONS.filter((r) => counts.has(r)).map((reason) => ({ reason, count: counts.get(reason) ?? 0 }));
  return { text: out, redacted: redactions.length > 0, redactions };
}

export interface RedactionRule {
  id: string;
  reason: RedactionReason;
}

/** Every rule of the redactor, in the order it runs: block passes, token formats, URL credentials, keyed rules. */
export const REDACTION_RULES: readonly RedactionRule[] = [
  { id: "private-key-block", reason: "private-key" },
  { id: "kubernetes-secret-manifest", reason: "kubernetes-secret" },
  ...TOKEN_FORMATS.map(({ id, reason }) => ({ id, reason })),
  { id: "url-credentials", reason: "url-credentials" },
  ...PROVIDER_KEYS.map(({ id, reason }) => ({ id, reason })),
  { id: "secret-named-assignment", reason: "secret-like-token" },
  { id: "credential-key-random-value", reason: "generic-api-key" },
  { id: "config-line-high-entropy", reason: "high-entropy-value" },
];

/** Every regex the redactor runs over a whole text (not over one short key or value): all must stay linear. */
export const WHOLE_TEXT_PATTERNS: readonly string[] = [
  PRIVATE_KEY_BEGIN,
  HINT_PATTERN,
  ...TOKEN_FORMATS.map((f) => f.source),
  URL_CREDENTIALS,
  SECRETISH_KEY.source,
  PROVIDER_NAME,
  PROVIDER_WORD,
  ASSIGNMENT,
  ENTROPY_LINE.source,
];
