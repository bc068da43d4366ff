/**
 * Provider credentials without a distinctive prefix (a Datadog app key is 40 hex characters, an Algolia key 32
 * letters and digits): recognised by the provider's name in the key they are assigned to together with the
 * value's documented shape. `DATADOG_APP_KEY=<40 hex>` is a secret; `DATADOG_SITE=datadoghq.eu` is not.
 */
import { keyWords } from "./secret-keys.js";
import type { RedactionReason } from "./redaction-reasons.js";

export interface ProviderKey {
  /** Our rule id. */
  id: string;
  reason: RedactionReason;
  /** Lower-case names; one must occur in the key with `_`, `-`, `.` and spaces removed (`new_relic` → `newrelic`). */
  names: readonly string[];
  /** Short names that must be a whole word of the key (`DD_API_KEY`, `OKTA_TOKEN`). */
  words?: readonly string[];
  /** Whole-value shapes (anchored). */
  values: readonly RegExp[];
}

/** Either case: some providers print their UUID keys in upper case. */
const UUID_ANY_CASE = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";
/** Whole-value regexes from sources: `shape(alnum(32), hex(40))` accepts 32 letters/digits or 40 hex digits. */
const shape = (...sources: string[]): RegExp[] => sources.map((s) => new RegExp(`^(?:${s})$`));
const alnum = (n: number | string): string => `[A-Za-z0-9]{${n}}`;
const hex = (n: number | string): string => `[a-fA-F0-9]{${n}}`;
const b64url = (n: number | string): string => `[A-Za-z0-9=_\\-]{${n}}`;

export const PROVIDER_KEYS: readonly ProviderKey[] = [
  { id: "datadog-key", reason: "datadog-key", names: ["datadog"], words: ["dd"], values: shape(alnum(40), hex(32)) },
  { id: "twilio-auth-token", reason: "twilio-key", names: ["twilio"], values: shape(hex(32)) },
  { id: "circleci-keyed-token", reason: "circleci-token", names: ["circleci", "circletoken"], values: shape(hex(40)) },
  { id: "bitbucket-client-credential", reason: "bitbucket-token", names: ["bitbucket"], values: shape(alnum(32), b64url(64)) },
  { id: "new-relic-keyed-key", reason: "new-relic-key", names: ["newrelic"], values: shape(alnum(64), alnum(40)) },
  { id: "sentry-keyed-token", reason: "sentry-credential", names: ["sentry"], values: shape(hex(64)) },
  { id: "mailgun-keyed-key", reason: "mailgun-key", names: ["mailgun"], values: shape("[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}", hex(32)) },
  { id: "adafruit-key", reason: "provider-keyed-secret", names: ["adafruit"], values: shape(b64url(32)) },
  { id: "adobe-client-id", reason: "provider-keyed-secret", names: ["adobe"], values: shape(hex(32)) },
  { id: "airtable-key", reason: "provider-keyed-secret", names: ["airtable"], values: shape(alnum(17)) },
  { id: "algolia-key", reason: "provider-keyed-secret", names: ["algolia"], values: shape(alnum(32)) },
  { id: "alibaba-secret-key", reason: "provider-keyed-secret", names: ["alibaba"], values: shape(alnum(30)) },
  { id: "asana-credential", reason: "provider-keyed-secret", names: ["asana"], values: shape("[0-9]{16}", alnum(32)) },
  { id: "atlassian-keyed-token", reason: "atlassian-token", names: ["atlassian", "confluence"], words: ["jira"], values: shape(`${alnum(20)}${hex(4)}`) },
  { id: "beamer-token", reason: "provider-keyed-secret", names: ["beamer"], values: shape(`b_${b64url(44)}`) },
  { id: "bittrex-key", reason: "provider-keyed-secret", names: ["bittrex"], values: shape(alnum(32)) },
  { id: "cisco-meraki-key", reason: "provider-keyed-secret", names: ["meraki"], values: shape(hex(40)) },
  { id: "cloudflare-key", reason: "provider-keyed-secret", names: ["cloudflare"], values: shape(b64url(40), hex(37)) },
  { id: "codecov-token", reason: "provider-keyed-secret", names: ["codecov"], values: shape(alnum(32)) },
  { id: "cohere-key", reason: "provider-keyed-secret", names: ["cohere", "coapikey"], values: shape(alnum(40)) },
  { id: "coinbase-token", reason: "provider-keyed-secret", names: ["coinbase"], values: shape(b64url(64)) },
  { id: "confluent-credential", reason: "provider-keyed-secret", names: ["confluent"], values: shape(alnum(16), alnum(64)) },
  { id: "contentful-token", reason: "provider-keyed-secret", names: ["contentful"], values: shape(b64url(43)) },
  { id: "discord-credential", reason: "provider-keyed-secret", names: ["discord"], values: shape(hex(64), "[0-9]{18}", b64url(32)) },
  { id: "droneci-token", reason: "provider-keyed-secret", names: ["droneci"], values: shape(alnum(32)) },
  { id: "dropbox-token", reason: "provider-keyed-secret", names: ["dropbox"], values: shape(alnum(15), `${alnum(11)}AAAAAAAAAA${b64url(43)}`, `sl\\.${b64url(135)}`) },
  { id: "etsy-token", reason: "provider-keyed-secret", names: [], words: ["etsy"], values: shape(alnum(24)) },
  { id: "facebook-secret", reason: "provider-keyed-secret", names: ["facebook"], values: shape(hex(32)) },
  { id: "fastly-token", reason: "provider-keyed-secret", names: ["fastly"], values: shape(b64url(32)) },
  { id: "finicity-credential", reason: "provider-keyed-secret", names: ["finicity"], values: shape(hex(32), alnum(20)) },
  { id: "finnhub-token", reason: "provider-keyed-secret", names: ["finnhub"], values: shape(alnum(20)) },
  { id: "flickr-token", reason: "provider-keyed-secret", names: ["flickr"], values: shape(alnum(32)) },
  { id: "freshbooks-token", reason: "provider-keyed-secret", names: ["freshbooks"], values: shape(alnum(64)) },
  { id: "gitter-token", reason: "provider-keyed-secret", names: ["gitter"], values: shape("[A-Za-z0-9_\\-]{40}") },
  { id: "gocardless-token", reason: "provider-keyed-secret", names: ["gocardless"], values: shape(`live_${b64url(40)}`) },
  { id: "heroku-keyed-key", reason: "provider-keyed-secret", names: ["heroku"], values: shape(UUID_ANY_CASE) },
  { id: "hubspot-key", reason: "provider-keyed-secret", names: ["hubspot"], values: shape(UUID_ANY_CASE) },
  { id: "intercom-token", reason: "provider-keyed-secret", names: ["intercom"], values: shape(b64url(60)) },
  { id: "jfrog-keyed-token", reason: "package-registry-token", names: ["jfrog", "artifactory", "bintray"], words: ["xray"], values: shape(alnum(73), alnum(64)) },
  { id: "kraken-token", reason: "provider-keyed-secret", names: ["kraken"], values: shape("[A-Za-z0-9/=_+\\-]{80,90}") },
  { id: "kucoin-credential", reason: "provider-keyed-secret", names: ["kucoin"], values: shape(hex(24), UUID_ANY_CASE) },
  { id: "launchdarkly-token", reason: "provider-keyed-secret", names: ["launchdarkly"], values: shape(b64url(40)) },
  { id: "linear-client-secret", reason: "provider-keyed-secret", names: ["linear"], values: shape(hex(32)) },
  { id: "linkedin-credential", reason: "provider-keyed-secret", names: ["linkedin"], values: shape(alnum(14), alnum(16)) },
  { id: "lob-key", reason: "provider-keyed-secret", names: [], words: ["lob"], values: shape(`(?:live|test)_${hex(35)}`, `(?:live|test)_pub_${hex(31)}`) },
  { id: "looker-credential", reason: "provider-keyed-secret", names: ["looker"], values: shape(alnum(20), alnum(24)) },
  { id: "mailchimp-keyed-key", reason: "email-provider-key", names: ["mailchimp"], values: shape(`${hex(32)}-us[0-9]{1,2}`) },
  { id: "mapbox-token", reason: "provider-keyed-secret", names: ["mapbox"], values: shape(`pk\\.${alnum(60)}\\.${alnum(22)}`) },
  { id: "mattermost-token", reason: "provider-keyed-secret", names: ["mattermost"], values: shape(alnum(26)) },
  { id: "messagebird-credential", reason: "provider-keyed-secret", names: ["messagebird"], values: shape(alnum(25), UUID_ANY_CASE) },
  { id: "netlify-token", reason: "provider-keyed-secret", names: ["netlify"], values: shape(b64url("40,46")) },
  { id: "nytimes-token", reason: "provider-keyed-secret", names: ["nytimes", "newyorktimes"], values: shape(b64url(32)) },
  { id: "okta-token", reason: "provider-keyed-secret", names: [], words: ["okta"], values: shape(`00${b64url(40)}`) },
  { id: "plaid-credential", reason: "provider-keyed-secret", names: ["plaid"], values: shape(alnum(24), alnum(30)) },
  { id: "privateai-token", reason: "provider-keyed-secret", names: ["privateai"], values: shape(alnum(32)) },
  { id: "rapidapi-token", reason: "provider-keyed-secret", names: ["rapidapi"], values: shape("[A-Za-z0-9_\\-]{50}") },
  { id: "sendbird-credential", reason: "provider-keyed-secret", names: ["sendbird"], values: shape(UUID_ANY_CASE, hex(40)) },
  { id: "sidekiq-credential", reason: "provider-keyed-secret", names: ["contribsys"], values: shape(`${hex(8)}:${hex(8)}`) },
  { id: "snyk-token", reason: "provider-keyed-secret", names: ["snyk"], values: shape(UUID_ANY_CASE) },
  { id: "sonar-keyed-token", reason: "devops-token", names: ["sonar"], values: shape(`(?:squ_|sqp_|sqa_)?${b64url(40)}`) },
  { id: "sourcegraph-keyed-token", reason: "saas-token", names: ["sourcegraph"], values: shape(hex(40)) },
  { id: "squarespace-token", reason: "provider-keyed-secret", names: ["squarespace"], values: shape(UUID_ANY_CASE) },
  { id: "sumologic-credential", reason: "provider-keyed-secret", names: ["sumologic"], words: ["sumo"], values: shape(`su${alnum(12)}`, alnum(64)) },
  { id: "telegram-keyed-token", reason: "messaging-token", names: ["telegr"], values: shape(`[0-9]{5,16}:A${b64url(34)}`) },
  { id: "travisci-token", reason: "provider-keyed-secret", names: ["travis"], values: shape(alnum(22)) },
  { id: "twitch-token", reason: "provider-keyed-secret", names: ["twitch"], values: shape(alnum(30)) },
  {
    id: "twitter-credential",
    reason: "social-token",
    names: ["twitter"],
    values: shape(alnum(25), alnum(45), alnum(50), `[0-9]{15,25}-${alnum("20,40")}`, "A{22}[A-Za-z0-9%]{80,100}"),
  },
  { id: "yandex-keyed-credential", reason: "cloud-access-key", names: ["yandex"], values: shape(`YC${b64url(38)}`) },
  { id: "zendesk-secret", reason: "provider-keyed-secret", names: ["zendesk"], values: shape(alnum(40)) },
];

/** Key words that name a public value even next to a provider's name (`CIRCLE_SHA1`, `SENTRY_RELEASE_COMMIT`). */
const PUBLIC_PROVIDER_WORDS: ReadonlySet<string> = new Set(
  "sha sha1 sha256 commit hash digest checksum integrity rev revision etag version url uri host hostname endpoint path file dir region site env".split(" "),
);

/** Any provider's name (all are lower-case letters and digits). */
export const PROVIDER_NAME = [...new Set(PROVIDER_KEYS.flatMap((p) => p.names))].join("|");
const PROVIDER_NAME_RE = new RegExp(PROVIDER_NAME);

/** A letter in either case (`[dD]`); a digit as is. */
const eitherCase = (ch: string): string => (/[a-z]/.test(ch) ? `[${ch}${ch.toUpperCase()}]` : ch);

/**
 * Regex source for a provider's word (lower-case) where it can be a whole word of a key (see `keyWords`): after no
 * letter or digit, or from an upper-case letter (a camel-case boundary); and before no lower-case letter or digit.
 */
function asKeyWord(word: string): string {
  const [first = "", ...rest] = word;
  const start = /[a-z]/.test(first) ? `(?:(?<![A-Za-z0-9])${eitherCase(first)}|${first.toUpperCase()})` : `(?<![A-Za-z0-9])${first}`;
  return `${start}${rest.map(eitherCase).join("")}(?![a-z0-9])`;
}

export const PROVIDER_WORD = PROVIDER_KEYS.flatMap((p) => p.words ?? []).map(asKeyWord).join("|");
const PROVIDER_WORD_RE = new RegExp(PROVIDER_WORD);

/**
 * Whether `text` (a key or a whole text; `lower` is it lower-cased) may name a provider the way `matchProvider`
 * reads a key: a name once the characters a key has besides letters and digits (`_ $ . -`) are dropped (what is
 * left of a key is its `keyWords` joined), or a word where a key's word can stand. A key without either matches no
 * provider, whatever its value; a text without either holds no such key.
 */
export function mayNameProvider(text: string, lower = text.toLowerCase()): boolean {
  return PROVIDER_WORD_RE.test(text) || PROVIDER_NAME_RE.test(lower.replace(/[_$.\-]/g, ""));
}

/**
 * Whether a provider is named somewhere in `lowerText` (separators ignored): only those count as candidates for
 * the text's keys. Decided per provider on first ask, since usually no key names one.
 */
export function providersNamedIn(lowerText: string): (p: ProviderKey) => boolean {
  let squashed: string | undefined;
  const named = new Map<ProviderKey, boolean>();
  return (p) => {
    let yes = named.get(p);
    if (yes === undefined) {
      const text = (squashed ??= lowerText.replace(/[_\-. ]/g, ""));
      yes = p.names.some((n) => text.includes(n)) || (p.words ?? []).some((w) => lowerText.includes(w));
      named.set(p, yes);
    }
    return yes;
  };
}

/** The first provider (in `PROVIDER_KEYS` order) named in `key` and in the text, whose shape `value` has, if any. */
export function matchProvider(namedInText: (p: ProviderKey) => boolean, key: string, value: string): ProviderKey | undefined {
  const words = keyWords(key);
  if (words.some((w) => PUBLIC_PROVIDER_WORDS.has(w))) return undefined;
  const squashed = words.join("");
  return PROVIDER_KEYS.find(
    (p) =>
      (p.names.some((n) => squashed.includes(n)) || (p.words ?? []).some((w) => words.includes(w))) &&
      p.values.some((re) => re.test(value)) &&
      namedInText(p),
  );
}
