import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { CLI, runCli } from "./helpers/cli.js";
import { inspectorSkip, runInspector } from "./helpers/inspector.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";

/** The MCP Inspector CLI, a third-party client, against the built server over stdio. */
describe("MCP Inspector CLI", { skip: inspectorSkip() }, () => {
  let repo: BuiltRepo;
  let dir: string;
  let store: string;
  const inspector = (...args: string[]) => {
    const r = runInspector([...args, "--", process.execPath, CLI, "serve", "--tools", "all", "--repo", repo.root, "--store", store], dir);
    assert.equal(r.status, 0, `inspector failed: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-inspector-"));
    store = join(dir, "index.db");
    assert.equal(runCli(["index", repo.root, "--store", store, "--quiet"]).status, 0);
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("tools/list", () => {
    const out = inspector("--method", "tools/list");
    const names = out.tools.map((t: { name: string }) => t.name).sort();
    assert.deepEqual(names, ["build_context_package", "check_context_freshness", "find_related_tests", "find_symbol", "get_change_impact_context", "get_file_slice", "get_instructions", "get_ownership", "get_task_context", "inspect_index", "search_code"]);
  });

  test("tools/call search_code", () => {
    const out = inspector("--method", "tools/call", "--tool-name", "search_code", "--tool-arg", "query=isQuoteExpired");
    assert.equal(out.isError, false);
    // The compact answer (the default), as text: the commit once, each file's heading with its facts once, its
    // matched lines as line:text.
    const text: string = out.content[0].text;
    assert.match(text, /^commit [0-9a-f]{12} · index idx-/);
    assert.match(text, /\n\n[^\n]+ \([^\n]*sha256:[0-9a-f]{12}\)\n17:[^\n]*isQuoteExpired/);
  });

  test("tools/call get_ownership and resources/read repo://build-graph", () => {
    const out = inspector("--method", "tools/call", "--tool-name", "get_ownership", "--tool-arg", 'paths=["services/pricing/pom.xml"]');
    const env = out.structuredContent ?? JSON.parse(out.content[0].text);
    assert.equal(env.ok, true, JSON.stringify(env.data));
    assert.deepEqual(env.data.paths[0].owners, ["@acme/pricing-team"]);
    const graph = inspector("--method", "resources/read", "--uri", "repo://build-graph");
    const modules = JSON.parse(graph.contents[0].text).data.buildGraph.modules.map((m: { name: string }) => m.name);
    assert.ok(modules.includes("pricing-api"), modules.join(", "));
  });

  test("prompts/list, prompts/get and tools/call build_context_package", () => {
    const prompts = inspector("--method", "prompts/list").prompts.map((p: { name: string }) => p.name).sort();
    assert.deepEqual(prompts, ["build_migration_context", "build_review_context"]);
    const got = inspector("--method", "prompts/get", "--prompt-name", "build_migration_context", "--prompt-args", "objective=Stop using quoteLegacy", "from=QuoteBatchJob#quoteLegacy", "to=QuoteService#quote");
    assert.match(got.messages[1].content.text, /Old API: QuoteBatchJob#quoteLegacy/);
    const out = inspector("--method", "tools/call", "--tool-name", "build_context_package", "--tool-arg", "purpose=planning", "goal=Cache quotes in QuoteService", "budgetTokens=1200", "target=anthropic");
    const env = out.structuredContent ?? JSON.parse(out.content[0].text);
    assert.equal(env.ok, true, JSON.stringify(env.data));
    assert.equal(typeof env.data.rendered.system, "string");
    assert.ok(env.data.package.budget.usedTokens <= 1200);
  });

  test("resources/read repo://map", () => {
    const out = inspector("--method", "resources/read", "--uri", "repo://map");
    assert.equal(JSON.parse(out.contents[0].text).data.map.repoId, "acme/pricing-service");
  });
});
