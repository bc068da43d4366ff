/** Package registries, SaaS tools and observability: npm, PyPI, RubyGems, Docker, Datadog, New Relic, Sentry, ... */
import { B, E, SP, UUID, lineBefore, type TokenFormat } from "./format.js";

/** An .npmrc line up to the value: the key at the start of the line, optionally behind a registry scope. */
const NPMRC_LINE = /^[^\S\r\n]{0,64}(?:\d{1,9}\|[^\S\r\n]{0,64})?(?:\/\/\S{0,300}:)?_(?:authToken|auth|password)[^\S\r\n]{0,20}=[^\S\r\n]{0,20}$/;

/** A registry-scoped token anywhere in a line (`see //npm.example/:_authToken=<token>`). */
const NPMRC_SCOPED_TOKEN = /\/\/\S{0,300}:_authToken[^\S\r\n]{0,20}=[^\S\r\n]{0,20}$/;

/** Docker's `auths.<registry>.auth` is base64 of `user:password`. */
function decodesToUserPassword(value: string): boolean {
  const decoded = Buffer.from(value, "base64").toString("utf8");
  return /^[^\s:]{1,256}:[^\r\n]{1,256}$/.test(decoded);
}


export const PACKAGES_AND_SAAS: readonly TokenFormat[] = [
  {
    id: "npm-token",
    reason: "npm-token",
    hints: ["npm_"],
    source: `(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])`,
  },
  {
    id: "npmrc-auth",
    reason: "npm-token",
    // `.npmrc`: `_authToken=<token>`, `_auth=<base64 user:password>`, `_password=<base64>`.
    hints: ["_auth", "_password"],
    source: String.raw`((?<![A-Za-z0-9])_(?:authToken|auth|password)${SP}=${SP})[^\s"'$\x60{<%]{8,1000}`,
    accept: (_s, text, offset) => NPMRC_LINE.test(lineBefore(text, offset)) || NPMRC_SCOPED_TOKEN.test(lineBefore(text, offset)),
  },
  {
    id: "pypi-token",
    reason: "pypi-token",
    hints: ["pypi-ag"],
    source: `${B}pypi-Ag[A-Za-z0-9_\\-]{40,2000}${E}`,
  },
  {
    id: "rubygems-token",
    reason: "rubygems-token",
    hints: ["rubygems_"],
    source: `${B}rubygems_[a-f0-9]{48}${E}`,
  },
  {
    id: "docker-token",
    reason: "docker-credential",
    hints: ["dckr_pat_", "dckr_oat_"],
    source: `${B}dckr_(?:pat|oat)_[A-Za-z0-9_\\-]{20,60}${E}`,
  },
  {
    id: "docker-config-auth",
    reason: "docker-credential",
    hints: ['"auth"'],
    source: String.raw`("auth"${SP}:${SP}")[A-Za-z0-9+/]{8,4000}={0,2}(?=")`,
    accept: decodesToUserPassword,
  },
  {
    id: "clojars-token",
    reason: "package-registry-token",
    hints: ["clojars_"],
    source: `(?<![A-Za-z0-9])CLOJARS_[A-Za-z0-9]{60}${E}`,
    ignoreCase: true,
  },
  {
    id: "jfrog-token",
    reason: "package-registry-token",
    hints: ["akcp", "cmvmd"],
    source: `${B}(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})${E}`,
  },
  {
    id: "readme-token",
    reason: "saas-token",
    hints: ["rdme_"],
    source: `${B}rdme_[a-z0-9]{70}${E}`,
  },
  {
    id: "postman-token",
    reason: "saas-token",
    hints: ["pmak-"],
    source: `${B}PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}${E}`,
  },
  {
    id: "planetscale-token",
    reason: "saas-token",
    hints: ["pscale_"],
    source: String.raw`${B}pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.\-]{32,64}(?![A-Za-z0-9_=.\-])`,
  },
  {
    id: "shopify-token",
    reason: "saas-token",
    hints: ["shpat_", "shpca_", "shppa_", "shpss_"],
    source: `${B}shp(?:at|ca|pa|ss)_[A-Za-z0-9]{32,64}${E}`,
  },
  {
    id: "notion-token",
    reason: "saas-token",
    hints: ["ntn_"],
    source: `${B}ntn_[0-9]{11}[A-Za-z0-9]{35}${E}`,
  },
  {
    id: "linear-api-key",
    reason: "saas-token",
    hints: ["lin_api_"],
    source: `${B}lin_api_[A-Za-z0-9_]{32,128}${E}`,
  },
  {
    id: "figma-token",
    reason: "saas-token",
    hints: ["figd_"],
    source: `${B}figd_[A-Za-z0-9_\\-]{40,200}${E}`,
  },
  {
    id: "airtable-token",
    reason: "saas-token",
    hints: ["pat"],
    source: String.raw`${B}pat[A-Za-z0-9]{14}\.[a-f0-9]{64}${E}`,
  },
  {
    id: "adobe-client-secret",
    reason: "saas-token",
    hints: ["p8e-"],
    source: `${B}p8e-[A-Za-z0-9]{32}${E}`,
  },
  {
    id: "clickhouse-secret-key",
    reason: "saas-token",
    hints: ["4b1d"],
    source: `${B}4b1d[A-Za-z0-9]{38}${E}`,
  },
  {
    id: "frameio-token",
    reason: "saas-token",
    hints: ["fio-u-"],
    source: String.raw`${B}fio-u-[A-Za-z0-9_\-=]{64}(?![A-Za-z0-9_\-=])`,
  },
  {
    id: "hubspot-private-app-token",
    reason: "saas-token",
    hints: ["pat-na", "pat-eu"],
    source: `${B}pat-(?:na|eu)[0-9]-${UUID}${E}`,
  },
  {
    id: "intra42-secret",
    reason: "saas-token",
    hints: ["s-s4t2"],
    source: `${B}s-s4t2(?:ud|af)-[a-fA-F0-9]{64}${E}`,
  },
  {
    id: "mapbox-secret-token",
    reason: "saas-token",
    hints: ["sk.eyj"],
    source: String.raw`${B}sk\.eyJ[A-Za-z0-9_\-]{50,400}\.[A-Za-z0-9_\-]{20,40}${E}`,
  },
  {
    id: "maxmind-license-key",
    reason: "saas-token",
    hints: ["_mmk"],
    source: `${B}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${E}`,
  },
  {
    id: "settlemint-token",
    reason: "saas-token",
    hints: ["sm_aat_", "sm_pat_", "sm_sat_"],
    source: `${B}sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}${E}`,
  },
  {
    id: "sourcegraph-token",
    reason: "saas-token",
    hints: ["sgp_"],
    source: `${B}sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}${E}`,
  },
  {
    id: "typeform-token",
    reason: "saas-token",
    hints: ["tfp_"],
    source: String.raw`${B}tfp_[A-Za-z0-9_\-.=]{59}(?![A-Za-z0-9_\-.=])`,
  },
];

export const OBSERVABILITY: readonly TokenFormat[] = [
  {
    id: "new-relic-key",
    reason: "new-relic-key",
    hints: ["nrak-", "nraa-", "nrii-", "nriq-", "nrra-", "nrjs-", "nral"],
    source: String.raw`${B}(?:NR(?:AK|AA|II|IQ|RA|JS)-[A-Za-z0-9\-]{19,40}|[a-f0-9]{36}NRAL)${E}`,
  },
  {
    id: "sentry-dsn",
    reason: "sentry-credential",
    // `https://<public key>[:<secret key>]@<host>/<project>`: the keys go, the host stays.
    hints: ["://"],
    source: String.raw`(https?://)[0-9a-f]{32}(?::[0-9a-f]{32})?(?=@)`,
  },
  {
    id: "sentry-token",
    reason: "sentry-credential",
    hints: ["sntryu_", "sntrys_"],
    source: String.raw`${B}(?:sntryu_[a-f0-9]{64}|sntrys_eyJ[A-Za-z0-9+/=_]{40,1000})(?![A-Za-z0-9+/=_])`,
  },
  {
    id: "grafana-token",
    reason: "observability-token",
    hints: ["glc_", "glsa_", "eyjrijoi"],
    source: String.raw`${B}(?:glc_[A-Za-z0-9+/]{32,400}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|eyJrIjoi[A-Za-z0-9]{70,400}={0,2})(?![A-Za-z0-9_\-+/=])`,
  },
  {
    id: "dynatrace-token",
    reason: "observability-token",
    hints: ["dt0c01."],
    source: String.raw`${B}dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}${E}`,
  },
];
