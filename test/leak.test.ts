import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defaultOperatorConfig, defaultReadPolicy } from "../src/config/schema.js";
import { silentLogger } from "../src/core/log.js";
import { createAuditSink } from "../src/service/audit.js";
import { openClient, openHarness, type Harness } from "./helpers/harness.js";
import { LEAKY_DIFF, SECRETS, TASKS_DIR, everyToolCall } from "./helpers/tool-calls.js";
import { currentHead } from "../src/sources/git-head.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { redactText } from "../src/policy/redact.js";
import { WITHHELD_RULE_TEXT } from "../src/query/instructions/withhold.js";
import type { Envelope } from "../src/service/envelope.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import type { BuiltRepo } from "./helpers/fixture.js";
import { SECRET_FRAGMENTS, SECRET_REPO_TASK, SECRET_SUSPECT_PATHS, VENDOR_TOKEN, buildSecretSuspectRepo } from "./helpers/secret-suspect-repo.js";

/** Distinctive pieces: a cut snippet must not leak half a secret either. */
const FRAGMENTS = SECRETS.flatMap((s) => [s, s.slice(0, 14), s.slice(-14)]);

describe("leak test: every tool and resource on the golden repository", () => {
  let h: Harness;
  let client: Client;
  const outputs: { what: string; text: string }[] = [];
  const called = new Set<string>();

  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await client.callTool({ name, arguments: { verbosity: "full", ...args } });
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
    const args = everyToolCall(files, h.repo.commit);
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

describe("leak test: a file marked secret-suspect is never served raw, by any tool or resource", () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: SqliteStore;
  let client: Client;
  let indexId: string;
  const outputs: { what: string; text: string }[] = [];

  /** Calls a tool, keeps its output for the sweep at the end, and checks it holds no fragment of either secret. */
  const call = async (name: string, args: Record<string, unknown>): Promise<Envelope> => {
    const res = await client.callTool({ name, arguments: { verbosity: "full", ...args } });
    const text = JSON.stringify(res);
    outputs.push({ what: `${name} ${JSON.stringify(args).slice(0, 120)}`, text });
    assertNoSecret(name, text);
    return JSON.parse((res.content as { text: string }[])[0]!.text) as Envelope;
  };
  const read = async (uri: string): Promise<Envelope> => {
    const res = await client.readResource({ uri });
    const text = JSON.stringify(res);
    outputs.push({ what: uri, text });
    assertNoSecret(uri, text);
    return JSON.parse((res.contents[0] as { text: string }).text) as Envelope;
  };

  before(async () => {
    repo = buildSecretSuspectRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-secret-suspect-store-"));
    store = SqliteStore.open(join(dir, "index.db"));
    const built = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20 });
    indexId = built.indexId;
    const tasks = join(dir, "tasks");
    mkdirSync(tasks);
    writeFileSync(join(tasks, "7.md"), SECRET_REPO_TASK);
    client = await openClient({
      store,
      root: built.repo.rootPath,
      policy: defaultReadPolicy(),
      operator: { ...defaultOperatorConfig(), taskSources: [{ type: "local", dir: tasks }] },
      logger: silentLogger,
      readHead: () => currentHead(built.repo.rootPath),
    });
  });
  after(async () => {
    await client.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("the fixture: each secret-holding file is secret-suspect, and redaction alone would let the vendor token through", async () => {
    for (const path of SECRET_SUSPECT_PATHS) assert.equal((await store.getFile(indexId, path))?.isSecretSuspect, true, path);
    for (const path of ["README.md", "src/invoice.ts", "services/api/handler.ts"]) assert.equal((await store.getFile(indexId, path))?.isSecretSuspect, false, path);
    // If the redactor ever learns this made-up format, pick another one: the tests below must not rely on it.
    assert.ok(redactText(`Smoke runs use the vendor account ${VENDOR_TOKEN} on staging.`).text.includes(VENDOR_TOKEN));
  });

  test("get_instructions: each rule of a secret-suspect file keeps its id and lines, its text is withheld, its restrictions stay", async () => {
    const env = await call("get_instructions", { paths: ["src/billing.ts", "services/api/handler.ts"] });
    assert.equal(env.ok, true);
    const ins = (env.data as { instructions: Instructions }).instructions;
    const fileRules = ins.layers.flatMap((l) => l.rules).filter((r) => r.path !== undefined);
    assert.deepEqual(
      fileRules.map((r) => r.id).sort(),
      ["AGENTS.md#L11", "AGENTS.md#L3", "AGENTS.md#L4", "AGENTS.md#L5", "AGENTS.md#L6", "services/api/CLAUDE.md#L3", "services/api/CLAUDE.md#L4", "services/api/CLAUDE.md#L5"],
    );
    for (const r of fileRules) {
      assert.equal(r.withheld, "secret_suspect", r.id);
      assert.equal(r.text, WITHHELD_RULE_TEXT, r.id);
    }
    assert.deepEqual(
      ins.files.map((f) => [f.path, f.withheld]),
      [["AGENTS.md", "secret_suspect"], ["services/api/CLAUDE.md", "secret_suspect"]],
    );
    // What the withheld rules forbid is still in force; what they ask for (commands) is not offered.
    assert.ok(ins.effective.forbiddenActions.some((a) => a.action === "push_protected_branch" && a.ruleIds.includes("AGENTS.md#L4")));
    assert.ok(ins.effective.forbiddenActions.some((a) => a.action === "edit_generated" && a.ruleIds.includes("services/api/CLAUDE.md#L5")));
    assert.deepEqual(Object.values(ins.effective.commands).flat(), []);
    assert.ok(ins.effective.rules.some((r) => r.id === "AGENTS.md#L6" && r.withheld === "secret_suspect"));
    assert.ok(env.warnings.some((w) => w.code === "instruction_file_withheld" && w.message.includes("AGENTS.md")));
    assert.ok(env.evidence.some((e) => e.path === "AGENTS.md" && e.startLine === 6));
  });

  test("repo://instructions: the same files, rules and lint, without their text", async () => {
    const env = await read("repo://instructions");
    assert.equal(env.ok, true);
    const files = (env.data as { instructions: { files: { path: string; withheld?: string; rules: { id: string; withheld?: string }[]; lint: { ruleId: string; line: number }[] }[] } }).instructions.files;
    const agents = files.find((f) => f.path === "AGENTS.md")!;
    assert.equal(agents.withheld, "secret_suspect");
    assert.ok(agents.rules.length === 5 && agents.rules.every((r) => r.withheld === "secret_suspect"));
    assert.deepEqual(
      agents.lint.map((l) => [l.ruleId, l.line]),
      [["STALE_COMMAND", 11]],
    );
  });

  test("documents: repo://docs and get_file_slice refuse a secret-suspect file and say why", async () => {
    for (const docId of ["docs/deploy.md", "AGENTS.md", "services/api/CLAUDE.md"]) {
      const env = await read(`repo://docs/${encodeURIComponent(docId)}`);
      assert.equal(env.ok, false, docId);
      assert.match((env.data as { error: { category: string; message: string } }).error.message, /secret-suspect/);
    }
    for (const path of SECRET_SUSPECT_PATHS) {
      const env = await call("get_file_slice", { path });
      assert.equal((env.data as { error?: { category: string } }).error?.category, "query_rejected", path);
    }
  });

  test("repo://map lists a secret-suspect key document without its title", async () => {
    const env = await read("repo://map");
    const key = (env.data as { map: { docs: { key: { path: string; title: string | null; withheld?: string }[] } } }).map.docs.key;
    const claude = key.find((d) => d.path === "services/api/CLAUDE.md")!;
    assert.deepEqual([claude.title, claude.withheld], [null, "secret_suspect"]);
    assert.equal(key.find((d) => d.path === "README.md")?.title, "Billing service");
  });

  test("search_code: no snippet of a secret-suspect file, and the answer says files were left out", async () => {
    for (const mode of ["lexical", "hybrid"]) {
      for (const query of ["zzsecret", "vendor account", "Mirror token", "sendInvoice"]) await call("search_code", { query, mode, includeGenerated: true });
    }
    const env = await call("search_code", { query: "vendor account", mode: "lexical" });
    assert.ok(env.warnings.some((w) => w.code === "secret_suspect_excluded"));
    await call("search_code", { query: "how is the vendor account charged when an invoice is sent to the customer" });
    await call("search_code", { query: "zzsecret_[A-Za-z0-9]+", mode: "lexical", regex: true });
  });

  test("find_symbol: no definition, signature or call-site snippet from a secret-suspect file", async () => {
    for (const intent of ["definition", "references", "call_sites"]) {
      for (const symbol of ["chargeCustomer", "sendInvoice"]) {
        const env = await call("find_symbol", { symbol, intent });
        const hits = (env.data as { hits: { path: string }[] }).hits;
        assert.ok(!hits.some((h) => h.path === "src/billing.ts"), `${intent} ${symbol}`);
      }
    }
  });

  test("get_change_impact_context: call sites, verifier hints and instructions of the bundle", async () => {
    await call("get_change_impact_context", { candidatePaths: ["src/invoice.ts"], symbols: ["sendInvoice"] });
    await call("get_change_impact_context", { candidatePaths: SECRET_SUSPECT_PATHS, symbols: ["chargeCustomer"], changeType: "refactor" });
  });

  test("build_context_package: excerpts, document outlines, examples, the instruction block and diff hunks", async () => {
    const scope = ["src/invoice.ts", "src/billing.ts", "docs/deploy.md", "AGENTS.md"];
    const diff = ["diff --git a/src/billing.ts b/src/billing.ts", "--- a/src/billing.ts", "+++ b/src/billing.ts", "@@ -5,1 +5,1 @@", `-  return sendInvoice("${VENDOR_TOKEN}", 1);`, '+  return sendInvoice("x", 1);', ""].join("\n");
    // A failing run whose stack names the secret-suspect file: the repair package must not excerpt it.
    const VERIFIER_LOG = "Error: charge failed\n    at chargeCustomer (src/billing.ts:5:10)\n    at sendInvoice (src/invoice.ts:2:3)\n";
    for (const purpose of ["planning", "editing", "verification_repair", "judging", "pr_summary"]) {
      const needsDiff = purpose !== "planning" && purpose !== "editing";
      const env = await call("build_context_package", { purpose, goal: "Change how sendInvoice charges the vendor account", candidatePaths: scope, symbols: ["sendInvoice", "chargeCustomer"], budgetTokens: 32000, ...(needsDiff ? { diff } : {}), ...(purpose === "verification_repair" ? { verifierOutput: VERIFIER_LOG } : {}) });
      assert.equal(env.ok, true, `${purpose}: ${JSON.stringify(env.data).slice(0, 200)}`);
      const rendered = JSON.stringify((env.data as { rendered: unknown }).rendered);
      if (purpose === "editing") assert.ok(rendered.includes(WITHHELD_RULE_TEXT.slice(0, 20)), "the instruction block shows that text was withheld");
    }
    await call("build_context_package", { purpose: "editing", goal: "Rename sendInvoice", migration: { from: "sendInvoice", to: "emitInvoice" }, budgetTokens: 32000 });
    const judged = await call("build_context_package", { purpose: "judging", goal: "Review", diff, budgetTokens: 16000 });
    assert.equal(judged.ok, true);
    await call("build_context_package", { purpose: "planning", taskId: "7", budgetTokens: 16000 });
  });

  test("get_task_context: links to secret-suspect files name them, never quote them", async () => {
    const env = await call("get_task_context", { taskId: "7" });
    assert.equal(env.ok, true);
    const links = (env.data as { task: { links: { target: string }[] } }).task.links;
    assert.ok(links.some((l) => l.target.includes("docs/deploy.md")));
  });

  test("every tool, prompt and resource: no fragment of either secret anywhere", async () => {
    const files = (await store.listFiles(indexId, { includeSkipped: true })).map((f) => f.path);
    const args = everyToolCall(files, repo.commit);
    const { tools } = await client.listTools();
    for (const t of tools) for (const a of args[t.name] ?? []) await call(t.name, a);
    const { resources } = await client.listResources();
    for (const r of resources) await read(r.uri);
    for (const d of (await store.listDocs(indexId, { limit: 1000 })).docs) await read(`repo://docs/${encodeURIComponent(d.docId)}`);
    const { prompts } = await client.listPrompts();
    for (const p of prompts) {
      const args: Record<string, string> = { objective: "Rename sendInvoice", from: "sendInvoice", to: "emitInvoice", paths: SECRET_SUSPECT_PATHS.join(","), goal: "Review", diff: "diff --git a/AGENTS.md b/AGENTS.md\n", budgetTokens: "32000" };
      const wanted = Object.fromEntries((p.arguments ?? []).filter((a) => args[a.name] !== undefined).map((a) => [a.name, args[a.name]!]));
      const res = await client.getPrompt({ name: p.name, arguments: wanted });
      outputs.push({ what: `prompt ${p.name}`, text: JSON.stringify(res) });
    }
    assert.ok(outputs.length > 60, `calls made: ${outputs.length}`);
    for (const { what, text } of outputs) assertNoSecret(what, text);
  });
});

describe("secret-suspect files: the operator's read policy may include them; the committed text is checked itself", () => {
  test("includeSecretSuspectFiles: true serves the rules' text", async () => {
    const repo = buildSecretSuspectRepo();
    const dir = mkdtempSync(join(tmpdir(), "repoctx-secret-allowed-"));
    const store = SqliteStore.open(join(dir, "index.db"));
    try {
      const built = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20 });
      const client = await openClient({ store, root: built.repo.rootPath, policy: { ...defaultReadPolicy(), includeSecretSuspectFiles: true }, logger: silentLogger, readHead: () => currentHead(built.repo.rootPath) });
      const res = await client.callTool({ name: "get_instructions", arguments: { verbosity: "full", paths: ["src/billing.ts"] } });
      const env = JSON.parse((res.content as { text: string }[])[0]!.text) as Envelope;
      const rules = (env.data as { instructions: Instructions }).instructions.layers.flatMap((l) => l.rules);
      assert.ok(rules.some((r) => r.id === "AGENTS.md#L6" && r.text.includes(VENDOR_TOKEN) && r.withheld === undefined));
      assert.ok(!env.warnings.some((w) => w.code === "instruction_file_withheld"));
      await client.close();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
      repo.cleanup();
    }
  });

  test("an AGENTS.md whose committed text holds a secret is withheld even when the indexed work tree's copy is clean", async () => {
    const repo = buildSecretSuspectRepo();
    const dir = mkdtempSync(join(tmpdir(), "repoctx-secret-committed-"));
    const store = SqliteStore.open(join(dir, "index.db"));
    try {
      // The work tree's copy drops the secret lines before indexing: its row is clean, the commit is not.
      writeFileSync(join(repo.root, "AGENTS.md"), "# Agent guide\n\n- Run `npm test` before every commit.\n");
      const built = await buildIndex({ root: repo.root, store, maxFileBytes: 1 << 20 });
      assert.equal((await store.getFile(built.indexId, "AGENTS.md"))?.isSecretSuspect, false);
      const client = await openClient({ store, root: built.repo.rootPath, policy: defaultReadPolicy(), logger: silentLogger, readHead: () => currentHead(built.repo.rootPath) });
      const res = await client.callTool({ name: "get_instructions", arguments: { verbosity: "full", paths: ["README.md"] } });
      const text = JSON.stringify(res);
      assertNoSecret("get_instructions", text);
      const env = JSON.parse((res.content as { text: string }[])[0]!.text) as Envelope;
      assert.equal((env.data as { instructions: Instructions }).instructions.files.find((f) => f.path === "AGENTS.md")?.withheld, "secret_suspect");
      await client.close();
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
      repo.cleanup();
    }
  });
});

interface Instructions {
  layers: { rules: { id: string; path?: string; text: string; withheld?: string }[] }[];
  files: { path: string; withheld?: string }[];
  effective: { forbiddenActions: { action: string; ruleIds: string[] }[]; commands: Record<string, unknown[]>; rules: { id: string; withheld?: string }[] };
}

function assertNoSecret(what: string, text: string): void {
  for (const f of SECRET_FRAGMENTS) assert.ok(!text.includes(f), `${what} leaks ${f.slice(0, 6)}…`);
}
