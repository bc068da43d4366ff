/**
 * Secret redaction: runs on every string that leaves the server. Secret-looking VALUES become `[REDACTED]`; the
 * surrounding text (key names, quotes, headers) stays so the agent still sees the shape of the code.
 *
 * Specific token formats favour recall; the generic "key = value" rule favours precision. Every pattern is linear
 * (disjoint or bounded repetitions, no nested unbounded quantifiers). Line count is preserved (a PEM block keeps its
 * newlines), and redacting already-redacted text changes nothing and reports nothing.
 */

export interface RedactionCount {
  reason: string;
  count: number;
}

export interface RedactResult {
  text: string;
  redacted: boolean;
  redactions: RedactionCount[];
}

export const REDACTED = "[REDACTED]";

/** Stable reason ids, in the order the rules run (and the order `redactions` lists them). */
export const REDACTION_REASONS = [
  "private-key",
  "aws-access-key-id",
  "aws-secret-access-key",
  "github-token",
  "slack-token",
  "slack-webhook",
  "stripe-key",
  "google-api-key",
  "npm-token",
  "jwt",
  "url-credentials",
  "secret-like-token",
  "high-entropy-value",
] as const;
export type RedactionReason = (typeof REDACTION_REASONS)[number];

/** Shortest value the generic rule redacts. */
const MIN_GENERIC_SECRET_LENGTH = 8;
/** Longest key name / quoted value the generic rule looks at. */
const MAX_KEY_LENGTH = 100;
const MAX_VALUE_LENGTH = 1024;
/** Longest indentation/prefix before a config key, and longest trailing comment after a config value. */
const MAX_CONFIG_PREFIX = 64;
const MAX_CONFIG_REST = 256;

/** Simple token formats: the whole match (after an optional kept prefix group) is the secret. */
interface TokenRule {
  reason: RedactionReason;
  /** Regex source; group 1, when present, is kept verbatim and only the rest is replaced. */
  source: string;
  flags: string;
}

const NOT_ALNUM_BEFORE = String.raw`(?<![A-Za-z0-9_])`;
const NOT_ALNUM_AFTER = String.raw`(?![A-Za-z0-9_])`;

const TOKEN_RULES: readonly TokenRule[] = [
  {
    reason: "aws-access-key-id",
    source: String.raw`(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])`,
    flags: "g",
  },
  {
    reason: "aws-secret-access-key",
    source: String.raw`((?:aws[_.\-]?secret[_.\-]?(?:access[_.\-]?)?key|secret[_.\-]?access[_.\-]?key)["']?[^\S\r\n]*(?::=|=>|:|=)[^\S\r\n]*["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`,
    flags: "gi",
  },
  {
    reason: "github-token",
    source: `${NOT_ALNUM_BEFORE}(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})${NOT_ALNUM_AFTER}`,
    flags: "g",
  },
  {
    reason: "slack-token",
    source: String.raw`${NOT_ALNUM_BEFORE}(?:xox[abeprs]-\d[A-Za-z0-9\-]{9,250}|xapp-\d-[A-Za-z0-9\-]{9,250})`,
    flags: "g",
  },
  {
    reason: "slack-webhook",
    source: String.raw`(https://hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/\-]{8,300}`,
    flags: "g",
  },
  {
    reason: "stripe-key",
    source: `${NOT_ALNUM_BEFORE}(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,255}|whsec_[A-Za-z0-9]{20,255})${NOT_ALNUM_AFTER}`,
    flags: "g",
  },
  {
    reason: "google-api-key",
    source: String.raw`(?<![A-Za-z0-9_\-])AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])`,
    flags: "g",
  },
  {
    reason: "npm-token",
    source: `${NOT_ALNUM_BEFORE}npm_[A-Za-z0-9]{36}${NOT_ALNUM_AFTER}`,
    flags: "g",
  },
  {
    reason: "jwt",
    source: String.raw`(?<![A-Za-z0-9_\-])eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{8,}(?![A-Za-z0-9_\-])`,
    flags: "g",
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Private keys (PEM / OpenSSH / PGP): scanned with indexOf so an unterminated block cannot cause backtracking.

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?)-----/;

/** Body replacement that keeps the block's line count. */
function redactedBody(body: string): string {
  const newlines = body.split("\n").length - 1;
  if (newlines === 0) return REDACTED;
  return `\n${REDACTED}${"\n".repeat(newlines - 1)}`;
}

function redactPrivateKeys(text: string, bump: (r: RedactionReason) => void): string {
  if (!text.includes("PRIVATE KEY")) return text;
  let out = "";
  let pos = 0;
  const begin = new RegExp(PEM_BEGIN.source, "g");
  for (let m = begin.exec(text); m !== null; m = begin.exec(text)) {
    const bodyStart = m.index + m[0].length;
    const endMarker = `-----END ${m[1] ?? ""}-----`;
    const endAt = text.indexOf(endMarker, bodyStart);
    const bodyEnd = endAt < 0 ? text.length : endAt;
    const body = text.slice(bodyStart, bodyEnd);
    out += text.slice(pos, bodyStart);
    if (body.trim() === REDACTED || body.trim() === "") {
      out += body;
    } else {
      out += redactedBody(body);
      bump("private-key");
    }
    pos = bodyEnd;
    begin.lastIndex = endAt < 0 ? text.length : endAt + endMarker.length;
  }
  return out + text.slice(pos);
}

// ---------------------------------------------------------------------------------------------------------------
// Credentials in URLs: scheme://user:password@host -> scheme://user:[REDACTED]@host

const URL_CREDENTIALS = String.raw`\b([A-Za-z][A-Za-z0-9+.\-]{1,30}://[^\s:@/?#'"]{1,256}:)([^\s@/?#'"]{1,256})@`;

// ---------------------------------------------------------------------------------------------------------------
// Generic "secret-named key = literal value" assignments.

/** Key, atomically (lookahead + backreference), then optional closing quote, separator and one value form. */
const GENERIC_ASSIGNMENT = [
  String.raw`(?<![\w$.\-])(?=(?<key>[A-Za-z_$][\w$.\-]{0,${MAX_KEY_LENGTH}}))\k<key>`,
  String.raw`(?<kq>["'\x60]?)[^\S\r\n]*(?<sep>:=|=>|:|=)[^\S\r\n]*`,
  "(?:",
  String.raw`"(?<dq>(?:[^"\\\r\n]|\\.){0,${MAX_VALUE_LENGTH}})"`,
  String.raw`|'(?<sq>(?:[^'\\\r\n]|\\.){0,${MAX_VALUE_LENGTH}})'`,
  String.raw`|\x60(?<bq>(?:[^\x60\\\r\n$]|\\.){0,${MAX_VALUE_LENGTH}})\x60`,
  String.raw`|(?<bare>[^\s"'\x60]{1,${MAX_VALUE_LENGTH}})`,
  ")",
].join("");

/** Cheap pre-check: the generic rule cannot match text without any of these. */
const GENERIC_HINT = /pass|pwd|secret|token|key/i;

/** Single words (after splitting the key) that end a secret name: `dbPassword`, `authtoken`, `CLIENT_SECRET`. */
const SECRET_WORD_SUFFIXES = ["password", "passwd", "pwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey"];
const SECRET_WORDS_EXACT: ReadonlySet<string> = new Set(["pass"]);
/** Two-word secret names: `api_key`, `accessKey`, `PRIVATE-KEY`. */
const SECRET_WORD_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ["api", "key"],
  ["access", "key"],
  ["private", "key"],
];
/** A key whose last word is one of these describes a secret (its name, file, length...) rather than holding one. */
const DESCRIPTIVE_LAST_WORDS: ReadonlySet<string> = new Set(
  (
    "name names file filename files path dir directory type types length len count url uri urls endpoint field fields " +
    "header headers id ids ref env var variable prefix suffix hint regex pattern label policy manager provider ttl " +
    "expiry expires expiration enabled required min max size format mode source description desc prompt message msg " +
    "placeholder text title error errors help version rotation location arn store validator validation strength reset " +
    "limit timeout lifetime usage command cmd selector template method algorithm alg scope scopes audience issuer kind " +
    "class index link route page param params parameter"
  ).split(" "),
);

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

function isSecretKeyName(key: string): boolean {
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined || DESCRIPTIVE_LAST_WORDS.has(last)) return false;
  if (words.some((w) => SECRET_WORDS_EXACT.has(w) || SECRET_WORD_SUFFIXES.some((s) => w.endsWith(s)))) return true;
  return words.some((w, i) => SECRET_WORD_PAIRS.some(([a, b]) => w === a && words[i + 1] === b));
}

const PLACEHOLDER_PATTERNS: readonly RegExp[] = [
  /\$\{[^}]*\}/, // ${VAR}
  /\{\{[^}]*\}\}/, // {{ secrets.X }}
  /^\$/, // $VAR
  /^<[^>]*>$/, // <your-token>
  /^%[A-Za-z_][\w.()]*%$/, // %ENV_VAR%, %env(X)%
  /^(?:x+|\*+|\.+|-+|#+|0+|•+)$/i,
  /^x{3,}/i,
  /\*{3,}/,
  /^your[_\-. ]/i,
  /[_\-]here$/i,
  /example|placeholder|changeme|change_me|change-me|dummy|redacted/i,
  /^(?:changeit|password|passwd|secret|token|undefined|null|none|nil|true|false|todo|tbd|hidden|masked)$/i,
  /process\.env|os\.environ|os\.getenv|getenv\(|System\.getenv|ENV\[|env\(/i,
];

/** Lower-case word lists (`new-password`, `bert-base-uncased`), dotted names (`auth.password`), URLs and paths. */
const NAME_LIKE_VALUES: readonly RegExp[] = [
  /^[a-z]+(?:[-_][a-z]+)+$/,
  /^[A-Za-z_][A-Za-z_\-]*(?:\.[A-Za-z_][A-Za-z_\-]*)+$/,
  /^[A-Za-z][A-Za-z0-9+.\-]*:\/\//,
  /^\.{0,2}\/[a-z0-9_.\-]*(?:\/[a-z0-9_.\-]*)*$/,
];

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

function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_PATTERNS.some((re) => re.test(value));
}

/**
 * `nameLikeIsSecret`: in an environment-file line (`DB_PASSWORD=correct-horse-battery-staple`) a word-list value is a
 * passphrase, not a field name, so the name-like exemption does not apply there.
 */
function isRedactableValue(value: string, nameLikeIsSecret = false): boolean {
  return (
    value.length >= MIN_GENERIC_SECRET_LENGTH &&
    !value.includes(REDACTED) &&
    !/\s/.test(value) &&
    !isPlaceholder(value) &&
    (nameLikeIsSecret || !NAME_LIKE_VALUES.some((re) => re.test(value)))
  );
}

/** An upper-case environment-variable key assigned without spaces: `.env` and shell-export style. */
const ENV_STYLE_KEY = /^[A-Z][A-Z0-9_]*$/;

interface GenericGroups {
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

function bareValueAllowed(text: string, offset: number, match: string, g: GenericGroups, value: string): boolean {
  if (g.sep !== ":" && g.sep !== "=") return false;
  if (CODE_LIKE_BARE.test(value)) return false;
  const prefix = linePrefix(text, offset);
  if (prefix === null || !CONFIG_LINE_PREFIX.test(prefix)) return false;
  const rest = lineRest(text, offset + match.length);
  if (rest === null || !CONFIG_LINE_REST.test(rest)) return false;
  const tight = g.sep === "=" && !/\s=|=\s/.test(match.slice(g.key.length));
  return tight || !PLAIN_IDENTIFIER.test(value);
}

function redactGeneric(text: string, bump: (r: RedactionReason) => void): string {
  if (!GENERIC_HINT.test(text)) return text;
  const re = new RegExp(GENERIC_ASSIGNMENT, "g");
  return text.replace(re, (...args: unknown[]) => {
    const match = args[0] as string;
    const groups = args[args.length - 1] as GenericGroups;
    const offset = args[args.length - 3] as number;
    if (!isSecretKeyName(groups.key)) return match;
    if (groups.sep === "=>" && groups.kq === "" && text[offset - 1] !== ":") return match; // arrow function
    const quoted = groups.dq ?? groups.sq ?? groups.bq;
    const value = quoted ?? groups.bare ?? "";
    const envStyle = quoted === undefined && groups.sep === "=" && ENV_STYLE_KEY.test(groups.key) && !/\s=|=\s/.test(match);
    if (!isRedactableValue(value, envStyle)) return match;
    if (quoted === undefined && !bareValueAllowed(text, offset, match, groups, value)) return match;
    bump("secret-like-token");
    const valueStart = quoted === undefined ? match.length - value.length : match.length - value.length - 1;
    return match.slice(0, valueStart) + REDACTED + match.slice(valueStart + value.length);
  });
}

// ---------------------------------------------------------------------------------------------------------------
// High-entropy values in configuration lines: a random-looking value assigned at the start of a line (`key: v`,
// `KEY=v`) is a credential even when its key does not say so (`SIGNING_SALT`, `webhook_sig`).

/** Shortest and longest value the entropy rule looks at. */
const MIN_ENTROPY_VALUE = 20;
const MAX_ENTROPY_VALUE = 200;
/** Bits per character above which a value reads as random (English identifiers stay below about 4). */
const MIN_ENTROPY_BITS = 4.2;
const ENTROPY_LINE = new RegExp(
  String.raw`^([^\S
]*(?:\d+\|[^\S
]*)?(?:export[^\S
]+|-[^\S
]+)?["']?([A-Za-z_][\w.-]{0,99})["']?[^\S
]*[:=][^\S
]*["']?)([A-Za-z0-9+/_\-.~]{${MIN_ENTROPY_VALUE},${MAX_ENTROPY_VALUE}}={0,2})(["']?[^\S
]*(?:#[^
]*)?)$`,
  "gm",
);
/** Keys whose values are random by design and public: digests, versions, ids, locations. */
const PUBLIC_RANDOM_KEYS = /(hash|checksum|digest|sha\d*|integrity|resolved|version|commit|rev(ision)?|etag|uuid|guid|(^|[_.-])id$|url|uri|path|image|ref|nonce_seed_public)/i;

function entropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function looksRandom(value: string): boolean {
  const v = value.replace(/=+$/, "");
  if (!/[0-9]/.test(v) || !/[A-Za-z]/.test(v)) return false;
  // Hex digests (md5, sha1, sha256) are public identifiers far more often than secrets.
  if (/^[0-9a-f]+$/i.test(v) && [32, 40, 64].includes(v.length)) return false;
  if (isPlaceholder(v) || NAME_LIKE_VALUES.some((re) => re.test(v))) return false;
  return entropyBits(v) >= MIN_ENTROPY_BITS;
}

function redactHighEntropy(text: string, bump: (r: RedactionReason) => void): string {
  if (!/[:=]/.test(text)) return text;
  return text.replace(ENTROPY_LINE, (match: string, head: string, key: string, value: string, tail: string) => {
    if (value.includes(REDACTED) || PUBLIC_RANDOM_KEYS.test(key) || !looksRandom(value)) return match;
    bump("high-entropy-value");
    return `${head}${REDACTED}${tail}`;
  });
}

// ---------------------------------------------------------------------------------------------------------------

/** Replaces secret-looking values in `text` with `[REDACTED]` and says how many of each reason it replaced. */
export function redactText(text: string): RedactResult {
  const counts = new Map<RedactionReason, number>();
  const bump = (reason: RedactionReason): void => {
    counts.set(reason, (counts.get(reason) ?? 0) + 1);
  };

  let out = redactPrivateKeys(text, bump);
  for (const rule of TOKEN_RULES) {
    out = out.replace(new RegExp(rule.source, rule.flags), (match: string, kept: unknown) => {
      bump(rule.reason);
      return (typeof kept === "string" ? kept : "") + REDACTED;
    });
  }
  out = out.replace(new RegExp(URL_CREDENTIALS, "g"), (match: string, prefix: string, password: string) => {
    if (password === REDACTED || isPlaceholder(password)) return match;
    bump("url-credentials");
    return `${prefix}${REDACTED}@`;
  });
  out = redactGeneric(out, bump);
  out = redactHighEntropy(out, bump);

  const redactions = REDACTION_REASONS.filter((r) => counts.has(r)).map((reason) => ({
    reason,
    count: counts.get(reason) ?? 0,
  }));
  return { text: out, redacted: redactions.length > 0, redactions };
}
