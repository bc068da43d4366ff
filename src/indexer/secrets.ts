/**
 * Secret scanning of indexed file contents: the lines of a file that hold a credential of a known format (private
 * key blocks, provider token formats, credentials in URLs; `src/policy/secret-scan.ts`), each reported under the
 * redactor's rule id. A file with a finding is secret-suspect: its text is neither indexed nor served.
 */
import { findCredentials } from "../policy/secret-scan.js";

export interface SecretFinding {
  /** The redactor's rule id, e.g. "aws-access-key-id". */
  ruleId: string;
  /** 1-based line of the start of the finding. */
  line: number;
}

export interface SecretScanner {
  scan(path: string, content: string): Promise<SecretFinding[]>;
}

/** Rule id reported when the scan itself throws: the file is treated as suspect (fail closed). */
export const SCAN_ERROR_RULE_ID = "repoctx/secret-scan-error";

export function createSecretScanner(): SecretScanner {
  return {
    async scan(_path: string, content: string): Promise<SecretFinding[]> {
      try {
        return findCredentials(content).map((f) => ({ ruleId: f.rule, line: f.line }));
      } catch {
        // Fail closed: content the scan cannot process is treated as suspect rather than silently clean.
        return [{ ruleId: SCAN_ERROR_RULE_ID, line: 1 }];
      }
    },
  };
}
