/**
 * Indexer and server apart, on one PostgreSQL store: `repoctx index` runs as a job for two repositories, two
 * `repoctx serve --http` replicas answer from the store (every repository in it, a `repoId` on each tool), the same
 * answers from both, and a re-index by the job is seen by both replicas without a restart.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Envelope } from "../src/service/envelope.js";
import { CLI, PROJECT_ROOT } from "./helpers/cli.js";
import { buildGoldenRepo, git, type BuiltRepo } from "./helpers/fixture.js";
import { callTool, connect, serveCli, stop } from "./helpers/http-cli.js";
import { dropPgSchema, freshPgStoreUrl, pgSkip } from "./helpers/pg.js";
import { B_ONLY_PATH, B_ONLY_TERM, REPO_A, REPO_B, buildBillingRepo } from "./helpers/two-repos.js";

const TOKEN = "replica-token-7d1e0c9b8a7f6e5d4c3b";

function indexJob(root: string, store: string): void {
  const r = spawnSync(process.execPath, [CLI, "index", root, "--store", store, "--quiet"], { cwd: PROJECT_ROOT, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

const paths = (env: Envelope): string[] => ((env.data.results ?? []) as { path: string }[]).map((r) => r.path);

describe("indexer and server apart: two HTTP replicas on one PostgreSQL store", { skip: pgSkip() }, () => {
  let store: string;
  let a: BuiltRepo;
  let bRoot: string;
  const replicas: Awaited<ReturnType<typeof serveCli>>[] = [];
  const clients: Client[] = [];

  before(async () => {
    store = freshPgStoreUrl();
    a = buildGoldenRepo();
    bRoot = join(a.base, "billing-repo");
    mkdirSync(bRoot);
    buildBillingRepo(bRoot);
    indexJob(a.root, store);
    indexJob(bRoot, store);
    for (let i = 0; i < 2; i++) {
      const replica = await serveCli(["--store", store], { REPOCTX_HTTP_TOKENS: TOKEN });
      replicas.push(replica);
      clients.push((await connect(replica.url, TOKEN)).client);
    }
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    for (const r of replicas) await stop(r.proc);
    await dropPgSchema(store);
    a?.cleanup();
  });

  test("both replicas serve every repository in the store, with the same answers and no cross-talk", async () => {
    for (const client of clients) {
      const tools = await client.listTools();
      const search = tools.tools.find((t) => t.name === "search_code")!;
      const repoIds = (search.inputSchema.properties as Record<string, { enum?: string[] }>).repoId?.enum;
      assert.deepEqual([...(repoIds ?? [])].sort(), [REPO_B, REPO_A].sort());
    }
    const answers = await Promise.all(clients.map((c) => callTool(c, "search_code", { repoId: REPO_B, query: B_ONLY_TERM })));
    for (const env of answers) {
      assert.equal(env.ok, true);
      assert.ok(paths(env).includes(B_ONLY_PATH));
    }
    assert.deepEqual(answers[0]!.data, answers[1]!.data, "replicas answer alike");
    const fromA = await callTool(clients[0]!, "search_code", { repoId: REPO_A, query: B_ONLY_TERM });
    assert.deepEqual(paths(fromA), [], "A's index holds nothing of B");
    const slice = await callTool(clients[1]!, "get_file_slice", { repoId: REPO_A, path: B_ONLY_PATH });
    assert.equal(slice.ok, false, "B's path is not readable through A");
  });

  test("a re-index by the job is served by both replicas without a restart", async () => {
    const before = await callTool(clients[0]!, "inspect_index", { repoId: REPO_B });
    writeFileSync(join(bRoot, "billing/src/Refunds.java"), "package com.acme.billing;\n\nclass Refunds {\n  long refundAllInvoicesQuietly() { return 0; }\n}\n");
    git(bRoot, ["add", "-A"]);
    git(bRoot, ["commit", "-q", "-m", "Refunds"]);
    indexJob(bRoot, store);
    for (const client of clients) {
      const env = await callTool(client, "search_code", { repoId: REPO_B, query: "refundAllInvoicesQuietly" });
      assert.deepEqual(paths(env), ["billing/src/Refunds.java"]);
      const after = await callTool(client, "inspect_index", { repoId: REPO_B });
      assert.notEqual(after.indexVersion, before.indexVersion, "the new index version is served");
    }
  });
});
