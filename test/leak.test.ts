import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defaultOperatorConfig, defaultReadPolicy } from "../src/config/schema.js";
import { currentHead } from "../src/indexer/repo-info.js";
import { silentLogger } from "../src/log.js";
import { createAuditSink } from "../src/mcp/audit.js";
import { openClient, openHarness, type Harness } from "./helpers/harness.js";

/**
 * The fake secrets of the golden repository and the task snapshots: in code (tools/publish_report.py), config
 * (application*.yml, tls.yml, .env), docs (docs/alerts.md), an issue snapshot (tasks/42.json) and a file name
 * (docs/keys/AKIA….txt). None may appear, whole or in part, in anything repoctx returns or records.
 */
const SECRETS = [
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
/** Distinctive pieces: a cut snippet must not leak half a secret either. */
const FRAGMENTS = SECRETS.flatMap((s) => [s, s.slice(0, 14), s.slice(-14)]);
const TASKS_DIR = fileURLToPath(new URL("./fixtures/tasks/", import.meta.url));

/** A diff that adds secrets and touches the file named after a key. */
const LEAKY_DIFF = [
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

/** A manifest naming the secret-holding files (hashes that match nothing). */
function leakyManifest(commit: string): Record<string, unknown> {
  const zero = `sha256:${"0".repeat(64)}`;
  const ev = (id: string, path: string) => ({ id, path, startLine: 1, endLine: 3, hash: zero, spanHash: zero, kind: "file_excerpt" });
  return {
    manifestVersion: 1,
    contextPackageId: "ctx_leak",
    purpose: "editing",
    repoId: "acme/pricing-service",
    baseCommit: commit,
    indexVersion: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    target: "local",
    tokenizer: "o200k_base",
    budgetTokens: 1000,
    tokenEstimate: 10,
    scopePaths: ["tools/publish_report.py", "docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt"],
    evidence: [ev("E1", "tools/publish_report.py"), ev("E2", "docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt"), ev("E3", "services/pricing/src/main/resources/tls.yml"), ev("E4", ".env")],
    instructionSources: [],
    constraintsHash: zero,
    effectiveInstructionHash: zero,
    outputContract: "structured_patch",
  };
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

describe("leak test: every tool and resource on the golden repository", () => {
  let h: Harness;
  let client: Client;
  const outputs: { what: string; text: string }[] = [];
  const called = new Set<string>();

  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: args });
    called.add(name);
    outputs.push({ what: `${name} ${JSON.stringify(args).slice(0, 120)}`, text: JSON.stringify(res) });
  };
  const read = async (uri: string) => {
    try {
      const res = await client.readResource({ uri });
      outputs.push({ what: uri, text: JSON.stringify(res) });
    } catch (err) {
      outputs.push({ what: uri, text: String(err) });
    }
  };

  before(async () => {
    h = await openHarness();
    const policy = defaultReadPolicy();
    client = await openClient({
      store: h.store,
      root: h.index.repo.rootPath,
      policy,
      operator: { ...defaultOperatorConfig(), taskSources: [{ type: "local", dir: TASKS_DIR }] },
      logger: silentLogger,
      readHead: () => currentHead(h.index.repo.rootPath),
      audit: createAuditSink({ store: h.store, jsonlFile: h.auditFile, preview: false, logger: silentLogger }),
    });
  });
  after(async () => {
    await client.close();
    await h.close();
  });

  test("call every tool with arguments that reach the secrets", async () => {
    const files = (await h.store.listFiles(h.index.indexId, { includeSkipped: true })).map((f) => f.path);
    assert.ok(files.some((f) => f.startsWith("docs/keys/AKIA")), "the file named after a key is indexed");
    const args: Record<string, Record<string, unknown>[]> = {
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
      check_context_freshness: [{ manifest: leakyManifest(h.repo.commit) }],
    };
    const { tools } = await client.listTools();
    for (const t of tools) {
      assert.ok(args[t.name], `the leak test has no arguments for tool ${t.name}: add them`);
      for (const a of args[t.name]!) await call(t.name, a);
    }
    assert.deepEqual([...called].sort(), tools.map((t) => t.name).sort());
  });

  test("get every prompt and complete every argument", async () => {
    const { prompts } = await client.listPrompts();
    const promptArgs: Record<string, Record<string, string>> = {
      build_migration_context: { objective: `Rotate ${SECRETS[4]}`, from: "publish", to: "GITHUB_TOKEN", paths: "tools/publish_report.py,docs/keys/AKIAZ7QW3ER5TY6UI8OP.txt", budgetTokens: "32000" },
      build_review_context: { goal: "Review", diff: LEAKY_DIFF, forbiddenPaths: "docs/keys/**", budgetTokens: "32000" },
    };
    for (const p of prompts) {
      assert.ok(promptArgs[p.name], `the leak test has no arguments for prompt ${p.name}: add them`);
      const res = await client.getPrompt({ name: p.name, arguments: promptArgs[p.name]! });
      outputs.push({ what: `prompt ${p.name}`, text: JSON.stringify(res) });
      for (const a of p.arguments ?? []) {
        for (const value of ["", "d", "docs/", "docs/keys/", "docs/keys/AKIA", "AKIA", "GITHUB", "SLACK", "publish"]) {
          const c = await client.complete({ ref: { type: "ref/prompt", name: p.name }, argument: { name: a.name, value } });
          outputs.push({ what: `complete ${p.name}.${a.name}=${value}`, text: JSON.stringify(c) });
        }
      }
    }
  });

  test("read every resource and every document", async () => {
    const { resources } = await client.listResources();
    for (const r of resources) await read(r.uri);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.deepEqual(
      resourceTemplates.map((t) => t.uriTemplate),
      ["repo://docs/{docId}"],
    );
    const { docs } = await h.store.listDocs(h.index.indexId, { limit: 1000 });
    assert.ok(docs.some((d) => d.path === "docs/alerts.md"));
    for (const d of docs) await read(`repo://docs/${encodeURIComponent(d.docId)}`);
    await read("repo://docs/AKIAQYLPMN5HHHFPZAM2");
  });

  test("no secret value, whole or in part, in any output, the audit log or the audit file", async () => {
    assert.ok(outputs.length > 100, `calls made: ${outputs.length}`);
    const audit = await h.store.listAudit({ limit: 100_000 });
    const sources = [...outputs, { what: "audit_log", text: JSON.stringify(audit) }, { what: "audit.jsonl", text: readFileSync(h.auditFile, "utf8") }];
    for (const { what, text } of sources) {
      for (const f of FRAGMENTS) assert.ok(!text.includes(f), `${what} leaks ${f.slice(0, 6)}…`);
    }
    // And the redaction said why, without the value.
    const all = outputs.map((o) => o.text).join("\n");
    for (const reason of ["github-token", "slack-token", "aws-access-key-id"]) assert.ok(all.includes(reason), reason);
    assert.ok(all.includes("docs/keys/[REDACTED].txt"), "the file name is redacted where it appears");
  });
});
