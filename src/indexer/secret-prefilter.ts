/**
 * The secret scanner's prefilter (see ./secrets.ts), apart from secretlint: the query layer checks text with it
 * (instructions withheld when they may hold a secret) without loading secretlint and its rules.
 */

/**
 * High-signal markers, one alternative per preset rule (or rule pattern). Case-sensitive like the rules.
 * No `\b`: several rules use `(?<!\p{L})`, which also matches after "_" or a digit.
 */
const PREFILTER = new RegExp(
  [
    String.raw`PRIVATE KEY`, // privatekey; GCP service-account JSON ("private_key": "-----BEGIN PRIVATE KEY...")
    String.raw`(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}`, // aws: access key id
    String.raw`(?:SECRET|[Ss]ecret)_?(?:ACCESS|[Aa]ccess)_?(?:KEY|[Kk]ey)`, // aws: secret access key (needs this key name)
    String.raw`:\/\/[^\/\s:@]+:[^\/\s@]+@`, // basicauth, database-connection-string, github x-oauth-basic URLs
    String.raw`_authToken=`, // npm: .npmrc auth token
    String.raw`npm_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])`, // npm: access token (exactly 36, like the rule)
    String.raw`xox[bpaor]-|xapp-|hooks\.slack\.com`, // slack
    String.raw`SG\.\w+\.\w`, // sendgrid
    String.raw`shp(?:pa|ca|at|ss)_`, // shopify
    String.raw`gh[pousr]_[A-Za-z0-9_]{36}(?![A-Za-z0-9_])|ghs_[0-9]|github_pat_`, // github (classic: exactly 36; app installation token)
    String.raw`glpat-|glc_|glsa_`, // gitlab, grafana
    String.raw`T3BlbkFJ|sk-ant-|gsk_`, // openai, anthropic, groq
    String.raw`hf_[A-Za-z]{34}|lin_api_|ntn_[0-9]|ops_ey`, // huggingface, linear, notion, 1password
    String.raw`hv[sbr]\.[A-Za-z0-9_-]{90}`, // hashicorp vault
    String.raw`vc[pciark]_[A-Za-z0-9]{20}|dapi[A-Fa-f0-9]{32}|dckr_pat_|figd_`, // vercel, databricks, docker, figma
  ].join("|"),
);

/** Cheap synchronous check: false means secretlint's recommended preset cannot report anything for `content`. */
export function mayContainSecret(content: string): boolean {
  return PREFILTER.test(content);
}
