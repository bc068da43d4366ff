/**
 * Secret scanning of indexed file contents with secretlint (recommended preset).
 *
 * secretlint is comparatively expensive per call (it sets up ~25 rules and runs each rule's regexes over the
 * whole content), and the indexer calls `scan` for every text file of repositories with 80k+ files. So a cheap
 * synchronous prefilter (`mayContainSecret`) runs first and secretlint only sees content that contains at
 * least one of the markers the preset's rules need in order to report anything. The prefilter must stay a
 * superset of what the preset detects: when a rule is added to the preset, add its marker here (the tests
 * check every rule we know of against the prefilter).
 */
import { lintSource } from "@secretlint/core";
import { creator as recommendPreset } from "@secretlint/secretlint-rule-preset-recommend";

export interface SecretFinding {
  /** secretlint rule id, e.g. "@secretlint/secretlint-rule-aws". */
  ruleId: string;
  /** 1-based line of the start of the finding. */
  line: number;
}

export interface SecretScanner {
  scan(path: string, content: string): Promise<SecretFinding[]>;
}

type LintOptions = Parameters<typeof lintSource>[0]["options"];
type LintConfig = LintOptions["config"];

/** Rule id reported when secretlint itself throws: the file is treated as suspect (fail closed). */
export const SCAN_ERROR_RULE_ID = "repoctx/secret-scan-error";

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

function extensionOf(path: string): string {
  const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const dot = path.lastIndexOf(".");
  return dot > slash + 1 ? path.slice(dot) : "";
}

/**
 * Config built once per scanner. AWS access key ids ("AKIA...") are scanned too (secretlint's default only
 * reports the secret access key); the AWS *account id* messages that come with that option are suppressed,
 * because a 12-digit account id is not a credential and is noisy.
 */
function createConfig(): LintConfig {
  return {
    rules: [
      {
        id: "@secretlint/secretlint-rule-preset-recommend",
        rule: recommendPreset,
        rules: [
          {
            id: "@secretlint/secretlint-rule-aws",
            options: { enableIDScanRule: true },
            allowMessageIds: ["AWSAccountID"],
          },
        ],
      },
    ],
  };
}

export function createSecretScanner(): SecretScanner {
  const options: LintOptions = {
    config: createConfig(),
    // Rules must only see the content we pass: never let one re-read the file from disk (the GCP rule reads
    // `.p12` files by path, relative to the process cwd).
    noPhysicFilePath: true,
    maskSecrets: true,
  };
  return {
    async scan(path: string, content: string): Promise<SecretFinding[]> {
      if (!mayContainSecret(content)) return [];
      let ext = extensionOf(path);
      if (ext.toLowerCase() === ".p12") ext = ""; // see noPhysicFilePath above
      try {
        const result = await lintSource({
          source: { content, filePath: path, ext, contentType: "text" },
          options,
        });
        const findings: SecretFinding[] = [];
        for (const m of result.messages) {
          if (m.type !== "message") continue;
          findings.push({ ruleId: m.ruleId, line: m.loc.start.line });
        }
        findings.sort((a, b) => a.line - b.line || (a.ruleId < b.ruleId ? -1 : a.ruleId > b.ruleId ? 1 : 0));
        return findings;
      } catch {
        // Fail closed: content secretlint cannot process is treated as suspect rather than silently clean.
        return [{ ruleId: SCAN_ERROR_RULE_ID, line: 1 }];
      }
    },
  };
}
