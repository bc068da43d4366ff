import { listedInputSchema } from "../src/mcp/server.js";
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { repoSet } from "../src/service/deps.js";
import type { Envelope } from "../src/service/envelope.js";
import { RESOURCES } from "../src/mcp/resources/index.js";
import { TOOLS } from "../src/mcp/tools/index.js";
import { openClient } from "./helpers/harness.js";
import { B_ONLY_PATH, B_ONLY_TERM, REPO_A, REPO_B, buildTwoRepos, type TwoRepos } from "./helpers/two-repos.js";

type JsonSchema = { properties: Record<string, { enum?: string[] }>; required?: string[]; additionalProperties?: boolean };

async function call(client: Client, tool: string, args: Record<string, unknown>): Promise<Envelope> {
  const res = await client.callTool({ name: tool, arguments: { verbosity: "full", ...args } });
  return res.structuredContent as unknown as Envelope;
}

function paths(env: Envelope): string[] {
  return env.evidence.map((e) => e.path);
}

describe("one server, two repositories (in memory)", () => {
  let two: TwoRepos;
  let client: Client;
  before(async () => {
    two = await buildTwoRepos();
    client = await openClient(repoSet([two.deps.a, two.deps.b]));
  });
  after(async () => {
    await client.close();
    await two.cleanup();
  });

  test("every tool gains a required repoId naming the served repositories; the rest of its schema is unchanged", async () => {
    const { tools } = await client.listTools();
    assert.equal(tools.length, TOOLS.length);
    for (const t of tools) {
      const schema = t.inputSchema as unknown as JsonSchema;
      assert.deepEqual(schema.properties.repoId?.enum, [REPO_A, REPO_B], t.name);
      assert.ok(schema.required?.includes("repoId"), `${t.name}: repoId is required`);
      assert.equal(schema.additionalProperties, false, t.name);
      const base = listedInputSchema(TOOLS.find((d) => d.name === t.name)!) as unknown as JsonSchema;
      const { repoId: _repoId, ...rest } = schema.properties;
      assert.deepEqual(rest, base.properties, `${t.name}: the tool's own properties`);
      assert.deepEqual(schema.required?.filter((r) => r !== "repoId") ?? [], base.required ?? [], t.name);
    }
  });

  test("a set of one repository keeps the schemas exactly as a single server's", async () => {
    const one = await openClient(repoSet([two.deps.a]));
    try {
      const { tools } = await one.listTools();
      for (const t of tools) assert.deepEqual(t.inputSchema, listedInputSchema(TOOLS.find((d) => d.name === t.name)!), t.name);
      const env = await call(one, "search_code", { query: "isQuoteExpired" });
      assert.equal(env.ok, true);
    } finally {
      await one.close();
    }
  });

  test("a missing or unknown repoId is invalid_input, naming no host path", async () => {
    for (const args of [{ query: "isQuoteExpired" }, { query: "isQuoteExpired", repoId: "acme/nothing" }, { query: "x", repoId: 7 }]) {
      const env = await call(client, "search_code", args);
      assert.equal(env.ok, false);
      assert.equal((env.data.error as { category: string }).category, "invalid_input");
      const text = JSON.stringify(env);
      assert.ok(!text.includes(two.a.base), "no host path in the error");
    }
  });

  test("answers come from the repository named, and only from it", async () => {
    const inB = await call(client, "search_code", { repoId: REPO_B, query: B_ONLY_TERM });
    assert.equal(inB.ok, true);
    assert.equal(inB.repoId, REPO_B);
    assert.ok(paths(inB).includes(B_ONLY_PATH), paths(inB).join(", "));
    assert.ok(paths(inB).every((p) => p.startsWith("billing/")), paths(inB).join(", "));
    const inA = await call(client, "search_code", { repoId: REPO_A, query: B_ONLY_TERM });
    assert.equal(inA.ok, true);
    assert.equal(inA.repoId, REPO_A);
    assert.deepEqual(paths(inA), [], "A has no hit for B's term");
    const quoteInA = await call(client, "search_code", { repoId: REPO_A, query: "Quote" });
    assert.ok(paths(quoteInA).length > 0);
    assert.ok(paths(quoteInA).every((p) => !p.startsWith("billing/")), "no B path in A's results");
  });

  test("a path of B is not found through A, and ../ towards B's work tree is rejected", async () => {
    const viaA = await call(client, "get_file_slice", { repoId: REPO_A, path: B_ONLY_PATH });
    assert.equal((viaA.data.error as { category: string }).category, "not_found");
    const viaB = await call(client, "get_file_slice", { repoId: REPO_B, path: B_ONLY_PATH });
    assert.equal(viaB.ok, true);
    for (const path of [`../billing-repo/${B_ONLY_PATH}`, "../billing-repo/README.md", "services/../../billing-repo/README.md"]) {
      const escaped = await call(client, "get_file_slice", { repoId: REPO_A, path });
      assert.equal(escaped.ok, false, path);
      assert.equal((escaped.data.error as { category: string }).category, "query_rejected", path);
    }
    const readmeA = await call(client, "get_file_slice", { repoId: REPO_A, path: "README.md" });
    const readmeB = await call(client, "get_file_slice", { repoId: REPO_B, path: "README.md" });
    assert.doesNotMatch(JSON.stringify(readmeA.data), /Billing service/);
    assert.match(JSON.stringify(readmeB.data), /Billing service/);
  });

  test("resources are per repository (?repoId=), and a URI without one is unknown", async () => {
    const { resources } = await client.listResources();
    assert.equal(resources.length, 2 * RESOURCES.length);
    assert.ok(resources.some((r) => r.uri === `repo://map?repoId=${encodeURIComponent(REPO_B)}`));
    const map = await client.readResource({ uri: `repo://map?repoId=${encodeURIComponent(REPO_B)}` });
    assert.equal(JSON.parse((map.contents[0] as { text: string }).text).data.map.repoId, REPO_B);
    assert.equal(map.contents[0]!.uri, `repo://map?repoId=${encodeURIComponent(REPO_B)}`);
    const doc = await client.readResource({ uri: `repo://docs/README.md?repoId=${encodeURIComponent(REPO_B)}` });
    assert.match((doc.contents[0] as { text: string }).text, /Billing service/);
    await assert.rejects(client.readResource({ uri: "repo://map" }), /unknown resource/);
    await assert.rejects(client.readResource({ uri: "repo://map?repoId=acme%2Fnothing" }), /unknown resource/);
    const { resourceTemplates } = await client.listResourceTemplates();
    assert.equal(resourceTemplates[0]!.uriTemplate, "repo://docs/{docId}{?repoId}");
  });

  test("prompts take a repoId; completions offer the served ids and complete paths from the chosen repository", async () => {
    const { prompts } = await client.listPrompts();
    for (const p of prompts) assert.deepEqual(p.arguments?.[0], { name: "repoId", description: `Repository to build from: one of ${REPO_A}, ${REPO_B}`, required: true });
    await assert.rejects(client.getPrompt({ name: "build_review_context", arguments: { goal: "g", diff: "x" } }), /repoId/);
    const got = await client.getPrompt({
      name: "build_migration_context",
      arguments: { repoId: REPO_B, objective: "Rename the totals method", from: `InvoiceTotals#${B_ONLY_TERM}`, to: "InvoiceTotals#totalCents" },
    });
    const pkg = (got.messages[1]!.content as { text: string }).text;
    assert.match(pkg, /InvoiceTotals/);
    assert.doesNotMatch(pkg, /QuoteService/, "the package is built from B alone");
    const ids = await client.complete({ ref: { type: "ref/prompt", name: "build_migration_context" }, argument: { name: "repoId", value: "acme/b" } });
    assert.deepEqual(ids.completion.values, [REPO_B]);
    const inB = await client.complete({
      ref: { type: "ref/prompt", name: "build_migration_context" },
      argument: { name: "paths", value: "billing/" },
      context: { arguments: { repoId: REPO_B } },
    });
    assert.ok(inB.completion.values.length > 0);
    const inA = await client.complete({
      ref: { type: "ref/prompt", name: "build_migration_context" },
      argument: { name: "paths", value: "billing/" },
      context: { arguments: { repoId: REPO_A } },
    });
    assert.deepEqual(inA.completion.values, []);
  });

  test("a repository whose work tree is not on this machine is served from the index, and says so", async () => {
    const remote = { ...two.deps.b, root: join(two.a.base, "not-here"), readHead: async () => null, workTree: false };
    const c = await openClient(repoSet([two.deps.a, remote]));
    try {
      const env = await call(c, "search_code", { repoId: REPO_B, query: B_ONLY_TERM });
      assert.equal(env.ok, true);
      assert.ok(paths(env).includes(B_ONLY_PATH));
      const codes = env.warnings.map((w) => w.code);
      assert.ok(codes.includes("work_tree_unavailable"), codes.join(", "));
      assert.ok(!codes.includes("file_changed_since_index"), "no file reads as changed because the tree is absent");
      const slice = await call(c, "get_file_slice", { repoId: REPO_B, path: B_ONLY_PATH });
      assert.equal(slice.ok, true, "file text comes from the index when the work tree is not here");
      const item = slice.data.slice as { content: string; contentHash: string; indexedContentHash: string };
      assert.ok(item.content.includes(B_ONLY_TERM), "the indexed text is served");
      assert.equal(item.contentHash, item.indexedContentHash, "served bytes are the indexed bytes");
      assert.ok(slice.warnings.some((w) => w.code === "work_tree_unavailable"), "the answer says where it came from");
      assert.ok(!JSON.stringify(slice).includes(two.a.base), "no host path");
      const escape = await call(c, "get_file_slice", { repoId: REPO_B, path: "../billing-repo/x.ts" });
      assert.equal(escape.ok, false, "a path outside the repository is refused without a work tree too");
      const local = await call(c, "search_code", { repoId: REPO_A, query: "isQuoteExpired" });
      assert.ok(!local.warnings.some((w) => w.code === "work_tree_unavailable"));
    } finally {
      await c.close();
    }
  });
});
