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
import { mayContainSecret } from "./secret-prefilter.js";

export { mayContainSecret } from "./secret-prefilter.js";

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
