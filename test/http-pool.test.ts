import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ToolPool } from "../src/cli/serve-pool.js";
import { defaultOperatorConfig } from "../src/config/schema.js";
import { silentLogger, type Logger } from "../src/core/log.js";
import { TOOL_NAMES } from "../src/mcp/tool-names.js";
import { toolCaller, type ToolCallParams } from "../src/mcp/server.js";
import { repoSet } from "../src/service/deps.js";
import type { Envelope } from "../src/service/envelope.js";
import type { AuditRecord } from "../src/store/store.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";
import { connect, serveCli, stop } from "./helpers/http-cli.js";
import { B_ONLY_PATH, B_ONLY_TERM, REPO_A, REPO_B, buildTwoRepos, type TwoRepos } from "./helpers/two-repos.js";

const TOKEN = "pool-7d1e3a9c5b2f4e6a8c0d2f4b6a8e0c1d";

/** Calls every tool of the mix answers: lexical and ranked search, symbols, a slice, tests, impact, in both repositories. */
function calls(): ToolCallParams[] {
  const full = { verbosity: "full" };
  return [
    { name: "search_code", arguments: { repoId: REPO_B, query: B_ONLY_TERM, mode: "lexical" } },
    { name: "search_code", arguments: { repoId: REPO_B, query: "invoice totals sum", ...full } },
    { name: "find_symbol", arguments: { repoId: REPO_B, name: B_ONLY_TERM } },
    { name: "get_file_slice", arguments: { repoId: REPO_B, path: B_ONLY_PATH, startLine: 1, endLine: 4 } },
    { name: "find_related_tests", arguments: { repoId: REPO_B, changedPaths: [B_ONLY_PATH] } },
    { name: "get_change_impact_context", arguments: { repoId: REPO_B, candidatePaths: [B_ONLY_PATH] } },
    { name: "search_code", arguments: { repoId: REPO_A, query: "price" } },
    { name: "inspect_index", arguments: { repoId: REPO_A } },
    { name: "search_code", arguments: { repoId: REPO_A, query: "x", mode: "nonsense" } },
    { name: "no_such_tool", arguments: {} },
  ];
}

describe("serve --http's tool worker pool", () => {
  let two: TwoRepos;
  before(async () => {
    two = await buildTwoRepos();
  });
  after(async () => {
    await two.cleanup();
  });

  const init = (storePath: string) => ({
    storePath,
    operator: defaultOperatorConfig(),
    targets: [
      { root: two.a.root, repoId: REPO_A, local: true },
      { root: two.bRoot, repoId: REPO_B, local: true },
    ],
    tools: [...TOOL_NAMES],
  });

  test("workers answer every call exactly as the server's own thread does, at once, and hand back one audit record per call", async () => {
    const local = toolCaller(repoSet([two.deps.a, two.deps.b]), TOOL_NAMES);
    const audit: AuditRecord[] = [];
    const pool = await ToolPool.start({ size: 2, init: init(two.storePath), logger: silentLogger, writeAudit: async (r) => void audit.push(r), local, files: 10 });
    try {
      assert.equal(pool.running, 2);
      // Three rounds at once: every worker has several calls in flight.
      const batch = [...calls(), ...calls(), ...calls()];
      const pooled = await Promise.all(batch.map((c) => pool.call(c)));
      const inThread = await Promise.all(batch.map((c) => local(c)));
      assert.deepEqual(pooled, inThread);
      assert.ok(pooled.some((r) => r.isError) && pooled.some((r) => !r.isError), "errors and answers alike");
      assert.ok(pooled[0]!.content[0]!.text.includes(B_ONLY_PATH), pooled[0]!.content[0]!.text);
      // An unknown tool is answered before any repository is chosen: no audit record; every other call has one.
      const known = batch.filter((c) => c.name !== "no_such_tool");
      const deadline = Date.now() + 10_000;
      while (audit.length < known.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(audit.map((r) => r.tool).sort(), known.map((c) => c.name).sort());
      assert.ok(audit.every((r) => r.repoId === REPO_A || r.repoId === REPO_B || r.outcome === "invalid_input"));
    } finally {
      await pool.close();
    }
    assert.equal(pool.running, 0);
  });

  test("a worker that stops answers its calls in flight with an internal error, the others serve, and it is started again", async () => {
    const lines: { level: string; message: string }[] = [];
    const logger: Logger = { log: (level, message) => void lines.push({ level, message }) };
    const local = toolCaller(repoSet([two.deps.a, two.deps.b]), TOOL_NAMES);
    const pool = await ToolPool.start({ size: 2, init: init(two.storePath), logger, writeAudit: async () => undefined, local, files: 10 });
    try {
      const [c] = calls();
      const expected = await local(c!);
      // Eight at once: four in flight on each worker; worker 0 is stopped before it can answer all of its own.
      const answers = Array.from({ length: 8 }, () => pool.call(c!));
      await pool.stopWorker(0);
      const got = await Promise.all(answers);
      const failed = got.filter((r) => r.isError);
      assert.ok(failed.length >= 1 && failed.length <= 4, `${failed.length} failed`);
      for (const r of failed) assert.match(r.content[0]!.text, /"category":"internal_error".*correlation id/);
      for (const r of got.filter((x) => !x.isError)) assert.deepEqual(r, expected);
      assert.ok(lines.some((l) => l.message === "tool worker stopped"));
      assert.deepEqual(await pool.call(c!), expected, "the other worker answers meanwhile");
      const deadline = Date.now() + 30_000;
      while (pool.running < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(pool.running, 2, "started again");
    } finally {
      await pool.close();
    }
  });

  test("workers that cannot open the store log why, and the server's thread answers", async () => {
    const lines: { level: string; message: string }[] = [];
    const logger: Logger = { log: (level, message) => void lines.push({ level, message }) };
    const local = toolCaller(repoSet([two.deps.a, two.deps.b]), TOOL_NAMES);
    const notAStore = mkdtempSync(join(tmpdir(), "repoctx-pool-bad-"));
    const pool = await ToolPool.start({ size: 2, init: init(notAStore), logger, writeAudit: async () => undefined, local, files: 10 });
    try {
      assert.equal(pool.running, 0);
      assert.equal(lines.filter((l) => l.message === "tool worker failed to start").length, 2, JSON.stringify(lines));
      const [c] = calls();
      assert.deepEqual(await pool.call(c!), await local(c!));
    } finally {
      await pool.close();
      rmSync(notAStore, { recursive: true, force: true });
    }
  });
});

describe("repoctx serve --http --watch with workers (built CLI)", () => {
  let repo: BuiltRepo;
  let dir: string;
  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-pool-cli-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("calls from several clients at once are answered by the workers; an edit the server's thread indexes is what they answer next; every call is audited once", async () => {
    const policy = join(dir, "policy.yml");
    writeFileSync(policy, "http:\n  workers: 2\n");
    const storePath = join(dir, "index.db");
    const { proc, url, stderr } = await serveCli(["--watch", "--repo", repo.root, "--store", storePath, "--policy", policy], { REPOCTX_HTTP_TOKENS: TOKEN });
    let made = 0;
    try {
      assert.match(stderr(), /"message":"tool workers ready","workers":2,"of":2/);
      const clients = await Promise.all([1, 2, 3].map(() => connect(url, TOKEN)));
      const search = async (i: number, query: string): Promise<Envelope> => {
        made += 1;
        const r = await clients[i % clients.length]!.client.callTool({ name: "search_code", arguments: { verbosity: "full", query, mode: "lexical" } });
        return r.structuredContent as unknown as Envelope;
      };
      const first = await Promise.all(Array.from({ length: 12 }, (_, i) => search(i, "freshlyPooledFunction")));
      assert.ok(first.every((e) => e.ok && (e.data as { results: unknown[] }).results.length === 0));
      writeFileSync(join(repo.root, "web/src/pooled.ts"), "export function freshlyPooledFunction(): number {\n  return 2;\n}\n");
      let after = first[0]!;
      const deadline = Date.now() + 60_000;
      while ((after.indexVersion === first[0]!.indexVersion || after.freshness !== "base_commit") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        after = await search(made, "freshlyPooledFunction");
      }
      assert.notEqual(after.indexVersion, first[0]!.indexVersion, "the workers see the server thread's update");
      assert.equal(after.freshness, "base_commit");
      assert.deepEqual((after.data as { results: { path: string }[] }).results.map((r) => r.path), ["web/src/pooled.ts"]);
      await Promise.all(clients.map((c) => c.client.close()));
    } finally {
      assert.equal(await stop(proc), 0, stderr());
    }
    const audited = readFileSync(join(dir, "audit.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as AuditRecord);
    assert.equal(audited.length, made);
    assert.ok(audited.every((r) => r.tool === "search_code" && r.outcome === "ok"));
  });
});

describe("repoctx serve --http with workers, without --watch (built CLI)", () => {
  let repo: BuiltRepo;
  let dir: string;
  before(() => {
    repo = buildGoldenRepo();
    dir = mkdtempSync(join(tmpdir(), "repoctx-pool-overlay-"));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    repo.cleanup();
  });

  test("the workers hear the server thread's watcher: a quiet tree costs them no git status, an edit is seen at once by a look at it alone", async () => {
    const policy = join(dir, "policy.yml");
    writeFileSync(policy, "http:\n  workers: 2\n");
    const trace = join(dir, "git-trace.txt");
    const { proc, url, stderr } = await serveCli(["--repo", repo.root, "--store", join(dir, "index.db"), "--policy", policy], { REPOCTX_HTTP_TOKENS: TOKEN, GIT_TRACE: trace });
    /** The `git status` commands run so far, whole or limited to paths. */
    const statuses = () => readFileSync(trace, "utf8").split("\n").filter((l) => / git (-c \S+ )?status /.test(l));
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      const clients = await Promise.all([1, 2, 3].map(() => connect(url, TOKEN)));
      const round = async (query: string): Promise<Envelope[]> =>
        Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            const r = await clients[i % clients.length]!.client.callTool({ name: "search_code", arguments: { verbosity: "full", query, mode: "lexical" } });
            return r.structuredContent as unknown as Envelope;
          }),
        );
      const hits = (envs: Envelope[]) => envs.map((e) => (e.data as { results: { path: string }[] }).results.map((r) => r.path).join(","));
      assert.deepEqual(new Set(hits(await round("overlaidPooledFunction"))), new Set([""]));
      // Past the overlay's one-second rule twice: the watcher is ready, each worker has had its whole look.
      await pause(1_200);
      await round("overlaidPooledFunction");
      await pause(1_200);
      await round("overlaidPooledFunction");
      const quiet = statuses().length;
      await pause(1_200);
      await round("overlaidPooledFunction");
      assert.equal(statuses().length, quiet, "nothing moved: no worker asked git");

      writeFileSync(join(repo.root, "web/src/overlaid.ts"), "export function overlaidPooledFunction(): number {\n  return 3;\n}\n");
      let seen = await round("overlaidPooledFunction");
      const deadline = Date.now() + 20_000;
      while (!hits(seen).every((h) => h === "web/src/overlaid.ts") && Date.now() < deadline) {
        await pause(50);
        seen = await round("overlaidPooledFunction");
      }
      assert.deepEqual(new Set(hits(seen)), new Set(["web/src/overlaid.ts"]), "every worker answers the edit from its overlay");
      assert.ok(seen.every((e) => e.warnings.some((w) => w.code === "working_tree_overlay")));
      const after = statuses().slice(quiet);
      assert.ok(after.length > 0 && after.every((l) => l.includes(" -- ") && l.includes("web/src/overlaid.ts")), after.join("\n"));
      await Promise.all(clients.map((c) => c.client.close()));
    } finally {
      assert.equal(await stop(proc), 0, stderr());
    }
  });
});
