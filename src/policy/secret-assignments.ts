/**
 * Secrets recognised by the key they are assigned to (`key = value`, `key: value`, `"key": "value"`):
 *
 * - a provider's name in the key and the provider's value shape (`DATADOG_APP_KEY=<40 hex>`);
 * - a secret-named key (`password`, `client_secret`, `app_key`) with a literal value;
 * - a key that asks for a credential (`key`, `auth`, `signature`, ...) with a random-looking value;
 * - a random-looking value at the start of a configuration line, whatever its key.
 *
 * Unquoted values count only in configuration lines (`.env`, YAML, properties), so code (`password = getPassword()`)
 * stays. Every pattern here is linear: bounded repetitions, none nested.
 */
import { REDACTED, type RedactionReason } from "./redaction-reasons.js";
import {
  MIN_GENERIC_SECRET_LENGTH,
  isPlaceholder,
  isPublicKeyWords,
  isRedactableValue,
  isSecretKeyWords,
  isWeakSecretKeyWords,
  keyWords,
  looksRandom,
} from "./secret-keys.js";
import { matchProvider, mayNameProvider, providersNamedIn, type ProviderKey } from "./secret-providers.js";

type Bump = (reason: RedactionReason) => void;

/** Longest key name / quoted value looked at. */
const MAX_KEY_LENGTH = 100;
const MAX_VALUE_LENGTH = 1024;
/** Longest indentation/prefix before a config key, and longest trailing comment after a config value. */
const MAX_CONFIG_PREFIX = 64;
const MAX_CONFIG_REST = 256;
/** Spaces or tabs around a separator. */
const GAP = String.raw`[^\S\r\n]{0,64}`;

/** Key, atomically (lookahead + backreference), then optional closing quote, separator and one value form. */
export const ASSIGNMENT = [
  String.raw`(?<![\w$.\-])(?=(?<key>[A-Za-z_$][\w$.\-]{0,${MAX_KEY_LENGTH}}))\k<key>`,
  // A comma separates a key from its value only right after a quoted key: `("api_key", "...")`, not `f(a, b)`.
  String.raw`(?<kq>["'\x60]?)${GAP}(?<sep>:=|=>|\?=|:|=|(?<=["'\x60]),)${GAP}`,
  "(?:",
  String.raw`"(?<dq>(?:[^"\\\r\n]|\\.){0,${MAX_VALUE_LENGTH}})"`,
  String.raw`|'(?<sq>(?:[^'\\\r\n]|\\.){0,${MAX_VALUE_LENGTH}})'`,
  String.raw`|\x60(?<bq>(?:[^\x60\\\r\n$]|\\.){0,${MAX_VALUE_LENGTH}})\x60`,
  String.raw`|(?<bare>[^\s"'\x60]{1,${MAX_VALUE_LENGTH}})`,
  ")",
].join("");

/** Identifiers (`userPassword`, `SecretKeySpec`) without digits: code, not a value, in unquoted position. */
const PLAIN_IDENTIFIER = /^[A-Za-z_$][A-Za-z_$]*$/;
/** What an unquoted value must not look like: calls, indexing, objects, statement ends, YAML tags/anchors/blocks. */
const CODE_LIKE_BARE = /[()[\]{}]|[,;]$|^[!&*|>@:=<%]/;
/**
 * Before a key whose value is unquoted: only indentation, `export`/`set`, a YAML list dash, a `#` comment marker, or
 * an .npmrc registry scope (`//npm.pkg.example/:_authToken=`); optionally after a slice's line-number gutter (`12| `).
 */
const CONFIG_LINE_PREFIX = /^[^\S\r\n]*(?:\d+\|[^\S\r\n]*)?(?:(?:export|set)[^\S\r\n]+|-[^\S\r\n]+|#[^\S\r\n]*|\/\/\S*:)?["']?$/;
/** After an unquoted value, up to the end of the line: only spaces and an optional ` # comment`. */
const CONFIG_LINE_REST = /^(?:[^\S\r\n]+#[^\r\n]*|[^\S\r\n]*)\r?$/;
/** An upper-case environment-variable key assigned without spaces: `.env` and shell-export style. */
const ENV_STYLE_KEY = /^[A-Z][A-Z0-9_]*$/;
/** Punctuation that ends a sentence or a call after an unquoted provider value. */
const TRAILING_PUNCTUATION = /[.,;:)\]}]+$/;

/** Cheap pre-check on a key: it cannot name a secret (strongly or weakly) without one of these. */
export const SECRETISH_KEY = /pass|pwd|secret|token|key|cred|auth|access|api|sig|salt|hmac|seed/i;

/** Random-looking values under credential-asking keys: length bounds and entropy floor (bits per character). */
const MIN_WEAK_VALUE = 16;
const MAX_WEAK_VALUE = 300;
const MIN_WEAK_BITS = 3.5;

interface Groups {
  key: string;
  kq: string;
  sep: string;
  dq?: string;
  sq?: string;
  bq?: string;
  bare?: string;
}

/** The text from the start of the line to `offset`, or null when that is longer than a config key's indentation. */
function linePrefix(text: string, offset: number): string | null {
  const from = Math.max(0, offset - MAX_CONFIG_PREFIX - 1);
  const window = text.slice(from, offset);
  const nl = window.lastIndexOf("\n");
  if (nl < 0 && from > 0) return null;
  return window.slice(nl + 1);
}

/** The text from `offset` to the end of the line, or null when that is longer than a trailing comment may be. */
function lineRest(text: string, offset: number): string | null {
  const window = text.slice(offset, offset + MAX_CONFIG_REST + 1);
  const nl = window.indexOf("\n");
  if (nl < 0 && offset + window.length < text.length) return null;
  return nl < 0 ? window : window.slice(0, nl);
}

/** An unquoted value in a configuration line (`KEY=value`, `  key: value # note`), not in code. */
function inConfigLine(text: string, offset: number, match: string, g: Groups): boolean {
  if (g.sep !== ":" && g.sep !== "=" && g.sep !== "?=") return false;
  if (CODE_LIKE_BARE.test(g.bare ?? "")) return false;
  const prefix = linePrefix(text, offset);
  if (prefix === null || !CONFIG_LINE_PREFIX.test(prefix)) return false;
  const rest = lineRest(text, offset + match.length);
  return rest !== null && CONFIG_LINE_REST.test(rest);
}

function bareValueAllowed(text: string, offset: number, match: string, g: Groups, value: string): boolean {
  if (!inConfigLine(text, offset, match, g)) return false;
  const tight = g.sep === "=" && !/\s=|=\s/.test(match.slice(g.key.length));
  return tight || !PLAIN_IDENTIFIER.test(value);
}

/** What to replace in one assignment, and why; null leaves it alone. */
interface Verdict {
  reason: RedactionReason;
  /** The part of the value to replace (a prefix of it: trailing punctuation stays). */
  secret: string;
}

/** How `judge` looks at one text: which providers the text names, and whether the pre-checks apply. */
interface Scope {
  namedInText: (p: ProviderKey) => boolean;
  prefilter: boolean;
}

function judge(text: string, offset: number, match: string, g: Groups, scope: Scope): Verdict | null {
  const quoted = g.dq ?? g.sq ?? g.bq;
  const value = quoted ?? g.bare ?? "";
  if (value.length < MIN_GENERIC_SECRET_LENGTH || value.includes(REDACTED)) return null;
  if (g.sep === "=>" && g.kq === "" && text[offset - 1] !== ":") return null; // an arrow function, not a hash entry
  // Pre-check: a key without a provider's name cannot match one; without a credential word, no other rule applies.
  const mayProvider = !scope.prefilter || mayNameProvider(g.key);
  if (!mayProvider && !SECRETISH_KEY.test(g.key)) return null;
  const trimmed = quoted === undefined ? value.replace(TRAILING_PUNCTUATION, "") : value;
  const provider = mayProvider ? matchProvider(scope.namedInText, g.key, trimmed) : undefined;
  if (provider !== undefined && (g.sep !== "," || g.kq !== "")) return { reason: provider.reason, secret: trimmed };

  if (!SECRETISH_KEY.test(g.key)) return null;
  const words = keyWords(g.key);
  const bareOk = (): boolean => quoted !== undefined || bareValueAllowed(text, offset, match, g, value);
  if (isSecretKeyWords(words)) {
    const envStyle = quoted === undefined && g.sep === "=" && ENV_STYLE_KEY.test(g.key) && !/\s=|=\s/.test(match);
    const commaOk = g.sep !== "," || (g.kq !== "" && quoted !== undefined && looksRandom(value, MIN_WEAK_BITS, true));
    if (commaOk && isRedactableValue(value, envStyle) && bareOk()) return { reason: "secret-like-token", secret: value };
    return null;
  }
  if (isWeakSecretKeyWords(words) && value.length >= MIN_WEAK_VALUE && value.length <= MAX_WEAK_VALUE) {
    if ((g.sep !== "," || g.kq !== "") && /^[A-Za-z0-9_\-+/=~]+$/.test(value) && looksRandom(value, MIN_WEAK_BITS, true) && bareOk()) {
      return { reason: "generic-api-key", secret: value };
    }
  }
  return null;
}

const ASSIGNMENT_RE = new RegExp(ASSIGNMENT, "g");

/**
 * Redacts secrets assigned to keys that name them (see the module comment). `lowerText` is `text` lower-cased;
 * `prefilter` false turns the literal pre-checks off (see `RedactOptions`).
 */
export function redactAssignments(text: string, lowerText: string, bump: Bump, prefilter = true): string {
  if (!/[:=,]/.test(text)) return text;
  // A key is part of the text: with no credential word and no provider named anywhere, no key can qualify.
  if (prefilter && !SECRETISH_KEY.test(text) && !mayNameProvider(text, lowerText)) return text;
  const scope: Scope = { namedInText: providersNamedIn(lowerText), prefilter };
  let out = "";
  let done = 0;
  ASSIGNMENT_RE.lastIndex = 0;
  for (let m = ASSIGNMENT_RE.exec(text); m !== null; m = ASSIGNMENT_RE.exec(text)) {
    const match = m[0];
    const groups = m.groups as unknown as Groups;
    const verdict = judge(text, m.index, match, groups, scope);
    if (verdict === null) continue;
    bump(verdict.reason);
    const quoted = groups.dq ?? groups.sq ?? groups.bq;
    const valueLength = (quoted ?? groups.bare ?? "").length;
    const valueStart = m.index + match.length - valueLength - (quoted === undefined ? 0 : 1);
    out += text.slice(done, valueStart) + REDACTED;
    done = valueStart + verdict.secret.length;
  }
  return done === 0 ? text : out + text.slice(done); // a redaction ends past its key: `done` > 0 once one happened
}

// ---------------------------------------------------------------------------------------------------------------
// High-entropy values in configuration lines: a random-looking value assigned at the start of a line (`key: v`,
// `KEY=v`) is a credential even when its key does not say so (`SIGNING_SALT`, `webhook_sig`).

/** Shortest and longest value the entropy rule looks at. */
const MIN_ENTROPY_VALUE = 20;
const MAX_ENTROPY_VALUE = 200;
/** Bits per character above which a value reads as random (English identifiers stay below about 4). */
const MIN_ENTROPY_BITS = 4.2;
const LINE_GAP = String.raw`[^\S\n]{0,64}`;
export const ENTROPY_LINE = new RegExp(
  [
    String.raw`^(${LINE_GAP}(?:\d{1,9}\|${LINE_GAP})?(?:export[^\S\n]{1,16}|-[^\S\n]{1,16})?["']?([A-Za-z_][\w.-]{0,99})["']?${LINE_GAP}[:=]${LINE_GAP}["']?)`,
    String.raw`([A-Za-z0-9+/_\-.~]{${MIN_ENTROPY_VALUE},${MAX_ENTROPY_VALUE}}={0,2})`,
    String.raw`(["']?${LINE_GAP}(?:#[^\n]{0,${MAX_CONFIG_REST}})?)$`,
  ].join(""),
  "gm",
);

export function redactHighEntropy(text: string, bump: Bump): string {
  if (!/[:=]/.test(text)) return text;
  return text.replace(ENTROPY_LINE, (match: string, head: string, key: string, value: string, tail: string) => {
    // `https://host/path` on a line of its own reads as key `https`, value `//host/path`: a URL, not a secret.
    if (value.includes(REDACTED) || value.startsWith("//") || isPlaceholder(value)) return match;
    const words = keyWords(key);
    if (isPublicKeyWords(words)) return match;
    // Hex has at most 4 bits per character: under a key that asks for a secret it counts without the entropy floor.
    const asksForSecret = isSecretKeyWords(words) || isWeakSecretKeyWords(words);
    const secretHex = asksForSecret && /^[0-9a-f]+$/i.test(value) && /[0-9]/.test(value) && /[a-f]/i.test(value);
    if (!secretHex && !looksRandom(value, MIN_ENTROPY_BITS, asksForSecret)) return match;
    bump("high-entropy-value");
    return `${head}${REDACTED}${tail}`;
  });
}
