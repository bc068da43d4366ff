import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CLI } from "./helpers/cli.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";

describe("the built server over stdio", () => {
  let repo: BuiltRepo;
  let storeDir: string;
  let store: string;
  before(() => {
    repo = buildGoldenRepo();
    storeDir = mkdtempSync(join(tmpdir(), "repoctx-stdio-"));
    store = join(storeDir, "index.db");
  });
  after(() => {
    rmSync(storeDir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("SDK client: initialize, tools/list, tools/call, resources/read (indexing on first start)", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "serve", "--tools", "all", "--repo", repo.root, "--store", store], stderr: "pipe" });
    let stderr = "";
    transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const client = new Client({ name: "stdio-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      assert.equal(client.getServerVersion()?.name, "repoctx");
      const tools = await client.listTools();
      assert.deepEqual(tools.tools.map((t) => t.name).sort(), ["build_context_package", "check_context_freshness", "find_related_tests", "find_symbol", "get_change_impact_context", "get_file_slice", "get_instructions", "get_ownership", "get_task_context", "inspect_index", "search_code"]);
      for (const t of tools.tools) {
        assert.equal(t.annotations?.readOnlyHint, true);
        assert.equal((t.inputSchema as { additionalProperties?: boolean }).additionalProperties, false);
      }
      const res = await client.callTool({ name: "search_code", arguments: { verbosity: "full", query: "isQuoteExpired" } });
      const env = res.structuredContent as { ok: boolean; data: { results: { path: string }[] } };
      assert.equal(env.ok, true);
      assert.equal(env.data.results[0]!.path, "services/pricing/src/main/java/com/acme/pricing/QuoteService.java");
      assert.deepEqual(JSON.parse((res.content as { text: string }[])[0]!.text), env, "text content is the same JSON");
      const bad = await client.callTool({ name: "get_file_slice", arguments: { verbosity: "full", path: "../outside-secret.txt" } });
      assert.equal(bad.isError, true);
      assert.equal((bad.structuredContent as { data: { error: { category: string } } }).data.error.category, "query_rejected");
      const schemaErr = await client.callTool({ name: "get_file_slice", arguments: { verbosity: "full", path: 42 } });
      assert.equal((schemaErr.structuredContent as { data: { error: { category: string } } }).data.error.category, "invalid_input");
      const map = await client.readResource({ uri: "repo://map" });
      assert.equal(JSON.parse((map.contents[0] as { text: string }).text).data.map.repoId, "acme/pricing-service");
      // The repository-knowledge and trust-boundary tools, end to end over stdio.
      const tests = await client.callTool({ name: "find_related_tests", arguments: { verbosity: "full", changedPaths: ["services/pricing/src/main/java/com/acme/pricing/QuoteService.java"] } });
      const t = (tests.structuredContent as { data: { tests: { path: string; testCommandHint: string }[] } }).data.tests[0]!;
      assert.equal(t.testCommandHint, "./mvnw -pl services/pricing -Dtest=QuoteServiceTest test");
      const owners = await client.callTool({ name: "get_ownership", arguments: { verbosity: "full", paths: ["web/src/quote.ts"] } });
      assert.deepEqual((owners.structuredContent as { data: { paths: { owners: string[] }[] } }).data.paths[0]!.owners, ["@acme/frontend"]);
      const ins = await client.callTool({ name: "get_instructions", arguments: { verbosity: "full", paths: ["web/src/quote.ts"] } });
      assert.equal((ins.structuredContent as { data: { instructions: { outcome: string } } }).data.instructions.outcome, "ok");
      for (const uri of ["repo://build-graph", "repo://ownership", "repo://risk-map", "repo://instructions", "repo://docs/README.md"]) {
        const r = await client.readResource({ uri });
        assert.equal(JSON.parse((r.contents[0] as { text: string }).text).ok, true, uri);
      }
      // Context assembly: a budgeted package, and the prompts that embed one.
      const pkg = await client.callTool({ name: "build_context_package", arguments: { verbosity: "full", purpose: "editing", goal: "Validate quote expiry", symbols: ["QuoteService#isQuoteExpired"], budgetTokens: 1500 } });
      const pkgData = (pkg.structuredContent as { data: { package: { budget: { usedTokens: number } }; rendered: { prompt: string } } }).data;
      assert.ok(pkgData.package.budget.usedTokens <= 1500);
      assert.match(pkgData.rendered.prompt, /public boolean isQuoteExpired/);
      const prompts = await client.listPrompts();
      assert.deepEqual(prompts.prompts.map((p) => p.name).sort(), ["build_migration_context", "build_review_context"]);
      const missingTask = await client.callTool({ name: "get_task_context", arguments: { verbosity: "full", taskId: "TASK-1" } });
      assert.equal((missingTask.structuredContent as { data: { error: { category: string } } }).data.error.category, "not_found", "no task source configured");
    } finally {
      await client.close();
    }
    assert.match(stderr, /indexing first/, "progress and logs go to stderr");
  });

  test("stdout carries nothing but JSON-RPC, even while indexing", async () => {
    const fresh = join(storeDir, "fresh.db");
    const child = spawn(process.execPath, [CLI, "serve", "--repo", repo.root, "--store", fresh], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const send = (msg: object) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    send({ jsonrpc: "2.0", id: 2, method: "tools/list" });
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "inspect_index", arguments: {} } });
    const deadline = Date.now() + 60_000;
    while (!stdout.includes('"id":3') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    child.stdin.end();
    await new Promise((r) => child.once("exit", r));
    const lines = stdout.split("\n").filter((l) => l.length > 0);
    assert.ok(lines.length >= 3, stdout);
    for (const line of lines) assert.equal(JSON.parse(line).jsonrpc, "2.0");
  });

  test("--tools core lists the core tools alone, and a call of another is an unknown tool", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--repo", repo.root, "--store", store, "--tools", "core"], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    const line = (msg: object) => `${JSON.stringify(msg)}\n`;
    child.stdin.end(
      line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } }) +
        line({ jsonrpc: "2.0", method: "notifications/initialized" }) +
        line({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} }) +
        line({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "build_context_package", arguments: { purpose: "planning", goal: "x", budgetTokens: 1000 } } }),
    );
    await new Promise((r) => child.once("exit", r));
    const answers = stdout.split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as { id?: number; result?: { tools?: { name: string }[]; isError?: boolean; structuredContent?: { data?: { error?: { category?: string } } } } });
    const { CORE_TOOLS } = await import("../src/mcp/tools/index.js");
    assert.deepEqual(answers.find((a) => a.id === 2)?.result?.tools?.map((t) => t.name).sort(), [...CORE_TOOLS].sort());
    const hidden = answers.find((a) => a.id === 3)?.result;
    assert.equal(hidden?.isError, true, JSON.stringify(hidden));
    const bad = spawnSync(process.execPath, [CLI, "serve", "--repo", repo.root, "--store", store, "--tools", "search_code,no_such_tool"], { encoding: "utf8", input: "" });
    assert.equal(bad.status, 2, "a usage error exits 2 (invalid_input)");
    assert.match(bad.stderr, /unknown tool\(s\) no_such_tool/);
  });

  test("a request sent just before stdin ends is still answered; a warm start says it is ready on stderr", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--repo", repo.root, "--store", store], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const line = (msg: object) => `${JSON.stringify(msg)}\n`;
    child.stdin.end(
      line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } }) +
        line({ jsonrpc: "2.0", method: "notifications/initialized" }) +
        line({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "find_symbol", arguments: { symbol: "QuoteService", intent: "references" } } }),
    );
    await new Promise((r) => child.once("exit", r));
    const answers = stdout.split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as { id?: number; result?: { content?: { text: string }[] } });
    const call = answers.find((a) => a.id === 2);
    assert.ok(call, stdout);
    assert.equal((JSON.parse(call.result?.content?.[0]?.text ?? "{}") as { ok?: boolean }).ok, true, JSON.stringify(call));
    const ready = stderr.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.message === "ready");
    assert.ok(ready, stderr);
    assert.equal(ready.transport, "stdio");
    assert.match(String(ready.indexVersion), /^idx-v/);
  });
});
