import { fileURLToPath } from "node:url";

/**
 * A call of every tool on the golden repository, with arguments that reach its fake secrets: the leak test checks
 * that nothing leaks from them, the PostgreSQL end-to-end test that both stores answer them alike.
 */

/**
 * The fake secrets of the golden repository and the task snapshots: in code (tools/publish_report.py), config
 * (application*.yml, tls.yml, .env), docs (docs/alerts.md), an issue snapshot (tasks/42.json) and a file name
 * (docs/keys/AKIA….txt). None may appear, whole or in part, in anything repoctx returns or records.
 */
export const SECRETS = [
  "Pr1c1ng-Sup3r-S3cret",
  "tfD2Gy6k9Cq5rTb9ZmLJ8wYxN4pQe7sVa1HcKdFu",
  "AKIAQYLPMN5HHHFPZAM2",
  "correct-horse-battery-staple",
  "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVb",
  "xoxb-2468013579-1357924680-AbCdEfGhIjKlMnOpQrStUvWx",
  "MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu",
  "/5OiPgoTdSy7bcF9IGpSE8ZgGKzgYQVZeN97YE00",
  "AKIAZ7QW3ER5TY6UI8OP",
  "ghp_Q7vR2mK9xLp4Tn8Wc3Yz6Hb1Jd5Fs0GaUeXi",
];

/** Task snapshots the operator's local task source serves (get_task_context). */
export const TASKS_DIR = fileURLToPath(new URL("../fixtures/tasks/", import.meta.url));

/** A diff that adds secrets and touches the file named after a key. */
export const LEAKY_DIFF = [
  "diff --git a/tools/publish_report.py b/tools/publish_report.py",
  "--- a/tools/publish_report.py",
  "+++ b/tools/publish_report.py",
  "@@ -1,1 +1,2 @@",
  `+GITHUB_TOKEN = "${SECRETS[9]}"`,
  " import os",
  "diff --git a/docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt b/docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt",
  "deleted file mode 100644",
  "--- a/docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt",
  "+++ /dev/null",
  "@@ -1,1 +0,0 @@",
  `-${SECRETS[1]}`,
  "",
].join("\n");
const LEAKY_LOG = [`$ SLACK=${SECRETS[5]} ./mvnw test`, `  File "tools/publish_report.py", line 3, in main`, `AssertionError: expected password="${SECRETS[0]}" to be rejected`].join("\n");

export const ZERO_HASH = `sha256:${"0".repeat(64)}`;

/** A context-package manifest whose hashes match nothing: one file excerpt (lines 1..endLine) per path, ids E1, E2, … */
export function placeholderManifest(f: {
  contextPackageId: string;
  repoId: string;
  baseCommit: string | null;
  scopePaths: string[];
  paths: string[];
  endLine: number;
  instructionSources: { path: string; hash: string }[];
}): Record<string, unknown> {
  return {
    manifestVersion: 1,
    contextPackageId: f.contextPackageId,
    purpose: "editing",
    repoId: f.repoId,
    baseCommit: f.baseCommit,
    indexVersion: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    target: "local",
    tokenizer: "o200k_base",
    budgetTokens: 1000,
    tokenEstimate: 10,
    scopePaths: f.scopePaths,
    evidence: f.paths.map((path, i) => ({ id: `E${i + 1}`, path, startLine: 1, endLine: f.endLine, hash: ZERO_HASH, spanHash: ZERO_HASH, kind: "file_excerpt" })),
    instructionSources: f.instructionSources,
    constraintsHash: ZERO_HASH,
    effectiveInstructionHash: ZERO_HASH,
    outputContract: "structured_patch",
  };
}

/** A manifest naming the secret-holding files (hashes that match nothing). */
function leakyManifest(commit: string): Record<string, unknown> {
  return placeholderManifest({
    contextPackageId: "ctx_leak",
    repoId: "acme/pricing-service",
    baseCommit: commit,
    scopePaths: ["tools/publish_report.py", "docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt"],
    paths: ["tools/publish_report.py", "docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt", "services/pricing/src/main/resources/tls.yml", ".env"],
    endLine: 3,
    instructionSources: [],
  });
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Arguments for each tool, by tool name: `files` are the index's paths (skipped ones too), `commit` the golden commit. */
export function everyToolCall(files: string[], commit: string): Record<string, Record<string, unknown>[]> {
  return {
    search_code: [
      ...["password", "secret", "token", "AKIA", "ghp_", "xoxb", "PRIVATE KEY", "MIIB", "key", "keys", "correct-horse", "Sup3r"].flatMap((query) => [
        { query, mode: "lexical", includeGenerated: true, maxResults: 50 },
        { query, mode: "hybrid", includeGenerated: true, maxResults: 50 },
      ]),
      { query: "[A-Za-z0-9/+]{20,}", regex: true, mode: "lexical", includeGenerated: true, maxResults: 50 },
      { query: "TOKEN", mode: "symbol" },
    ],
    find_symbol: ["GITHUB_TOKEN", "SLACK_BOT_TOKEN", "publish", "password"].flatMap((symbol) =>
      (["definition", "references", "call_sites"] as const).map((intent) => ({ symbol, intent })),
    ),
    get_file_slice: [...files.map((path) => ({ path })), { path: "AKIAQYLPMN5HHHFPZAM2/../secret" }, { path: "docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt", expectedContentHash: `sha256:${"0".repeat(64)}` }],
    find_related_tests: [...chunks(files, 50).map((changedPaths) => ({ changedPaths })), { symbols: ["GITHUB_TOKEN", "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVb"] }],
    get_ownership: [...chunks(files, 100).map((paths) => ({ paths })), { paths: ["AKIAQYLPMN5HHHFPZAM2/new.txt"] }],
    get_instructions: [
      { paths: ["services/pricing/src/main/resources/tls.yml", "tools/publish_report.py"], userTask: "Rotate the token ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVb, the key AKIAQYLPMN5HHHFPZAM2 and the bot token xoxb-2468013579-1357924680-AbCdEfGhIjKlMnOpQrStUvWx." },
      { paths: ["docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt"] },
    ],
    get_task_context: [{ taskId: "42", includeComments: true, maxComments: 50 }, { taskId: "TASK-1234" }, { taskId: "#42" }],
    inspect_index: [{}],
    get_change_impact_context: [
      ...chunks(files, 50).map((candidatePaths) => ({ candidatePaths, changeType: "refactor" })),
      { candidatePaths: ["tools/publish_report.py", "docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt"], symbols: ["GITHUB_TOKEN", "publish"], changeType: "api_migration", budgetTokens: 32000 },
    ],
    build_context_package: [
      ...chunks(files, 50).map((candidatePaths) => ({ purpose: "editing", goal: "Review every file", candidatePaths, budgetTokens: 64000 })),
      ...chunks(files, 50).map((candidatePaths) => ({ purpose: "planning", goal: "Plan", candidatePaths, budgetTokens: 64000, target: "gemini" })),
      { purpose: "editing", goal: `Rotate the token ${SECRETS[4]} and the key ${SECRETS[2]}`, symbols: ["GITHUB_TOKEN", "SLACK_BOT_TOKEN", "publish"], migration: { from: "publish", to: "GITHUB_TOKEN" }, budgetTokens: 32000, target: "openai" },
      { purpose: "planning", taskId: "42", budgetTokens: 16000 },
      { purpose: "editing", taskId: "TASK-1234", budgetTokens: 16000, target: "anthropic" },
      { purpose: "judging", goal: "Review", diff: LEAKY_DIFF, contract: { forbiddenPaths: ["docs/keys/**"], acceptanceCriteria: [`DB_PASSWORD=${SECRETS[3]}`] }, budgetTokens: 16000 },
      { purpose: "pr_summary", goal: "Summarize", diff: LEAKY_DIFF, budgetTokens: 16000 },
      { purpose: "verification_repair", goal: "Fix", diff: LEAKY_DIFF, verifierOutput: LEAKY_LOG, budgetTokens: 16000 },
    ],
    check_context_freshness: [{ manifest: leakyManifest(commit) }],
  };
}
