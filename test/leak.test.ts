import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defaultOperatorConfig, defaultReadPolicy } from "../src/config/schema.js";
import { silentLogger } from "../src/core/log.js";
import { createAuditSink } from "../src/service/audit.js";
import { openClient, openHarness, type Harness } from "./helpers/harness.js";
import { LEAKY_DIFF, SECRETS, TASKS_DIR, everyToolCall } from "./helpers/tool-calls.js";
import { currentHead } from "../src/sources/git-head.js";

/** Distinctive pieces: a cut snippet must not leak half a secret either. */
const FRAGMENTS = SECRETS.flatMap((s) => [s, s.slice(0, 14), s.slice(-14)]);

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
