/**
 * What a key name and a value say about a secret: secret-named keys (`dbPassword`, `APP_KEY`), keys that name
 * public random values (digests, commits, ids), placeholders, name-like values and randomness. Only applied to
 * one key (at most ~100 characters) or one value (at most ~1,000) at a time, never to a whole text.
 */
import { REDACTED } from "./redaction-reasons.js";

export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/** Single words (after splitting the key) that end a secret name: `dbPassword`, `authtoken`, `CLIENT_SECRET`. */
const SECRET_WORD_SUFFIXES = ["password", "passwd", "pwd", "passphrase", "secret", "token", "apikey", "accesskey", "privatekey", "appkey", "credential", "credentials"];
const SECRET_WORDS_EXACT: ReadonlySet<string> = new Set(["pass", "creds"]);
/** Words that make `<word> key` a secret name: `api_key`, `accessKey`, `APP_KEY`, `signing-key`. */
const KEY_QUALIFIERS: ReadonlySet<string> = new Set(
  (
    "api access private app application client master signing encryption decryption license licence auth account " +
    "shared admin consumer ingest insert hmac jwt root deploy subscription"
  ).split(" "),
);
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

/** Words of a key (see `keyWords`) that name a password, secret, token or a credential key. */
export function isSecretKeyWords(words: readonly string[]): boolean {
  const last = words[words.length - 1];
  if (last === undefined || DESCRIPTIVE_LAST_WORDS.has(last)) return false;
  if (words.some((w) => SECRET_WORDS_EXACT.has(w) || SECRET_WORD_SUFFIXES.some((s) => w.endsWith(s)))) return true;
  return words.some((w, i) => KEY_QUALIFIERS.has(w) && words[i + 1] === "key");
}

/** Words that make a key worth a look when its value is random-looking (gitleaks' generic API key keywords). */
const WEAK_SECRET_WORDS: ReadonlySet<string> = new Set(["key", "auth", "access", "api", "sig", "signature", "salt", "hmac", "seed", "cred"]);
/** Keys naming a value that is random by design and public: digests, commits, ids, locations, public keys. */
const PUBLIC_WORDS: ReadonlySet<string> = new Set(
  (
    "hash hashes checksum checksums digest sha sha1 sha256 sha512 md5 integrity resolved version commit rev revision " +
    "etag uuid guid id url uri path image ref public publishable pub nonce cache sort primary foreign partition " +
    "idempotency host hostname endpoint region site"
  ).split(" "),
);

/** A key whose words ask for a random value to be treated as a credential, and none names a public value. */
export function isWeakSecretKeyWords(words: readonly string[]): boolean {
  const last = words[words.length - 1];
  if (last === undefined || DESCRIPTIVE_LAST_WORDS.has(last)) return false;
  return words.some((w) => WEAK_SECRET_WORDS.has(w)) && !words.some((w) => PUBLIC_WORDS.has(w));
}

/** A key naming a digest, commit, id or location: its random-looking value is public. */
export function isPublicKeyWords(words: readonly string[]): boolean {
  return words.some((w) => PUBLIC_WORDS.has(w) || /^(?:sha|md)[0-9]*(?:sum)?$/.test(w));
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

export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER_PATTERNS.some((re) => re.test(value));
}

function isNameLike(value: string): boolean {
  return NAME_LIKE_VALUES.some((re) => re.test(value));
}

/** Shortest value the generic rule redacts. */
export const MIN_GENERIC_SECRET_LENGTH = 8;

/**
 * `nameLikeIsSecret`: in an environment-file line (`DB_PASSWORD=correct-horse-battery-staple`) a word-list value is a
 * passphrase, not a field name, so the name-like exemption does not apply there.
 */
export function isRedactableValue(value: string, nameLikeIsSecret = false): boolean {
  return (
    value.length >= MIN_GENERIC_SECRET_LENGTH &&
    !value.includes(REDACTED) &&
    !/\s/.test(value) &&
    !isPlaceholder(value) &&
    (nameLikeIsSecret || !isNameLike(value))
  );
}

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

const UUID_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_DIGEST = /^[0-9a-f]{32}$|^[0-9a-f]{40}$|^[0-9a-f]{64}$|^[0-9a-f]{128}$/i;
/** `snake_case_words`, `kebab-words-v2`: identifiers, whatever their entropy. */
const WORD_LIST = /^[A-Za-z]{1,40}[0-9]{0,3}(?:[_\-][A-Za-z]{1,40}[0-9]{0,3}){1,20}$/;

/**
 * A value that reads as random: letters and digits, high enough entropy, not a placeholder or a name. A bare hex
 * digest (md5, sha1, sha256) only counts under a key that asks for a secret (`secretKey`), never under a neutral
 * one (`build: <sha>`), since public digests are far more common there.
 */
export function looksRandom(value: string, minBits: number, hexIsSecret: boolean): boolean {
  const v = value.replace(/=+$/, "");
  if (!/[0-9]/.test(v) || !/[A-Za-z]/.test(v)) return false;
  if (!hexIsSecret && HEX_DIGEST.test(v)) return false;
  if (UUID_VALUE.test(v) || WORD_LIST.test(v)) return false;
  if (isPlaceholder(v) || isNameLike(v)) return false;
  return entropyBits(v) >= minBits;
}
