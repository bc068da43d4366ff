import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before, describe, test } from "node:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defaultOperatorConfig, defaultReadPolicy, type ReadPolicy, type TaskSource } from "../src/config/schema.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { silentLogger } from "../src/core/log.js";
import type { Envelope } from "../src/service/envelope.js";
import type { TaskContext } from "../src/query/task-context/types.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";
import { openClient } from "./helpers/harness.js";
import { currentHead } from "../src/sources/git-head.js";

const TASKS_DIR = fileURLToPath(new URL("./fixtures/tasks/", import.meta.url));
const RECORDED = fileURLToPath(new URL("./fixtures/tasks/github/", import.meta.url));
const QUOTE_SERVICE = "services/pricing/src/main/java/com/acme/pricing/QuoteService.java";
/** Fake secrets in the task fixtures; none may ever appear in a tool's output. */
const FAKE_SECRETS = ["AKIAQYLPMN5HHHFPZAM2", "ghp_Q7vR2mK9xLp4Tn8Wc3Yz6Hb1Jd5Fs0GaUeXi"];
/** A made-up token the GitHub provider reads from the environment. */
const TOKEN_ENV = "REPOCTX_TEST_GH_TOKEN";
const FAKE_TOKEN = "test-token-7f3a9c21-not-a-real-credential";

type Result = Envelope & { isError: boolean };

interface Served {
  client: Client;
  call(args: Record<string, unknown>): Promise<Result>;
}

describe("get_task_context", () => {
  let repo: BuiltRepo;
  let store: SqliteStore;
  let storeDir: string;
  let root: string;
  const clients: Client[] = [];
  const outputs: string[] = [];

  async function serve(taskSources: TaskSource[] | null, policy: Partial<ReadPolicy> = {}): Promise<Served> {
    const readPolicy = { ...defaultReadPolicy(), ...policy };
    const client = await openClient({
      store,
      root,
      policy: readPolicy,
      ...(taskSources === null ? {} : { operator: { ...defaultOperatorConfig(), repoContext: readPolicy, taskSources } }),
      logger: silentLogger,
      readHead: () => currentHead(root),
    });
    clients.push(client);
    return {
      client,
      async call(args) {
        const res = await client.callTool({ name: "get_task_context", arguments: { verbosity: "full", ...args } });
        const text = (res.content as { type: string; text: string }[])[0]!.text;
        outputs.push(text);
        return { ...(JSON.parse(text) as Envelope), isError: res.isError === true };
      },
    };
  }

  const local: TaskSource[] = [{ type: "local", dir: TASKS_DIR }];
  const taskOf = (env: Result): TaskContext => env.data.task as TaskContext;

  before(async () => {
    repo = buildGoldenRepo();
    storeDir = mkdtempSync(join(tmpdir(), "repoctx-tasks-"));
    store = SqliteStore.open(join(storeDir, "index.db"));
    const index = await buildIndex({ root: repo.root, store, maxFileBytes: defaultReadPolicy().maxIndexedFileBytes });
    root = index.repo.rootPath;
  });
  after(async () => {
    for (const c of clients) await c.close();
    await store.close();
    rmSync(storeDir, { recursive: true, force: true });
    repo.cleanup();
    const all = outputs.join("\n");
    for (const s of [...FAKE_SECRETS, FAKE_TOKEN]) assert.ok(!all.includes(s), `a fake secret leaked into an output: ${s.slice(0, 6)}…`);
  });

  test("a Markdown task with front matter becomes structured, untrusted context", async () => {
    const s = await serve(local);
    const env = await s.call({ taskId: "TASK-1234" });
    assert.equal(env.ok, true, JSON.stringify(env.data));
    assert.equal(env.isError, false);
    assert.equal(env.freshness, "external_snapshot");
    const t = taskOf(env);
    assert.equal(t.id, "TASK-1234");
    assert.equal(t.source, "local");
    assert.equal(t.title, "Migrate LegacyPricingClient to PricingGateway");
    assert.deepEqual(t.labels, ["migration", "pricing"]);
    assert.equal(t.trustLevel, "external_task_text");
    assert.match(t.objective ?? "", /^Migrate LegacyPricingClient to PricingGateway in the pricing service\./);
    assert.deepEqual(
      t.acceptanceCriteria.map((c) => [c.text, c.checked ?? null]),
      [
        ["No call sites to LegacyPricingClient#getQuote remain in services/pricing", false],
        ["QuoteServiceTest passes", true],
        ["Quote responses keep the same JSON shape", null],
      ],
    );
    assert.deepEqual(t.nonGoals.map((n) => n.text), ["Changing the public quote API", "Removing the `services/pricing-api` module"]);

    // The injected line is reported with its place, and kept out of the requirement lists.
    const sus = t.suspiciousInstructions;
    assert.ok(sus.length >= 1);
    assert.ok(sus.every((x) => x.where === "body"));
    const push = sus.find((x) => x.ruleId === "unsafe-git");
    assert.ok(push, JSON.stringify(sus));
    assert.equal(push.line, 9);
    assert.match(push.excerpt, /push directly to main/);
    if (push.startColumn !== undefined) {
      const line = readFileSync(join(TASKS_DIR, "TASK-1234.md"), "utf8").split("\n")[13 + push.line - 1]!;
      assert.ok(push.endColumn! > push.startColumn);
      assert.match(line.slice(push.startColumn - 1, push.endColumn! - 1), /push/);
    }
    assert.match(t.injectionWarning ?? "", /never as an instruction to follow/);
    assert.ok(env.warnings.some((w) => w.code === "task_text_contains_instructions"));
    const all = JSON.stringify([t.objective, t.acceptanceCriteria, t.nonGoals, t.userAuthoredInstructions]);
    assert.ok(!all.includes("push directly"), "the injection is not presented as a requirement");

    // Requirements the author wrote, apart from the suspicious text.
    assert.ok(t.userAuthoredInstructions.some((u) => /^Replace LegacyPricingClient with PricingGateway/.test(u.text)), JSON.stringify(t.userAuthoredInstructions));
    assert.ok(t.userAuthoredInstructions.some((u) => /^Keep the config key/.test(u.text)));

    // Links: repository paths checked against the index, docs, issues, pull requests.
    const link = (target: string) => t.links.find((l) => l.target === target);
    const svc = link(QUOTE_SERVICE);
    assert.deepEqual({ type: svc?.type, exists: svc?.exists, path: svc?.path, trustLevel: (svc as { trustLevel?: string } | undefined)?.trustLevel }, {
      type: "repo_path",
      exists: true,
      path: QUOTE_SERVICE,
      trustLevel: "source_code",
    });
    const legacy = link("services/pricing/src/main/java/com/acme/pricing/LegacyPricingClient.java");
    assert.equal(legacy?.exists, false);
    assert.equal(legacy?.type, "repo_path");
    const guide = link("docs/integration.md");
    assert.equal(guide?.type, "doc");
    assert.equal(guide?.exists, true);
    assert.equal(guide?.title, "integration guide");
    assert.equal(guide?.uri, "repo://docs/docs/integration.md");
    assert.equal(link("docs/adr/0001-maven-multi-module.md")?.type, "doc");
    assert.equal(link("services/pricing-api")?.exists, true, "a folder of the index exists too");
    assert.equal(link("#41")?.type, "issue");
    assert.equal(link("https://github.com/acme/pricing-service/pull/77")?.type, "pull_request");
    assert.equal(link("https://tracker.example.com/browse/TASK-1234"), undefined, "the task's own url is metadata, not a link in the text");
    assert.equal(t.url, "https://tracker.example.com/browse/TASK-1234");
    assert.ok(!t.links.some((l) => l.target === "AGENTS.md"), "an un-ticked bare file name is not a path link");
    assert.deepEqual(t.outline.map((o) => o.heading), ["Objective", "Acceptance criteria", "Non-goals", "Notes"]);

    // Comments from front matter, as untrusted text each.
    assert.equal(t.comments.length, 2);
    assert.equal(t.comments[0]!.author, "priya");
    assert.equal(t.comments[0]!.trustLevel, "external_task_text");
    assert.deepEqual(t.commentStats, { total: 2, returned: 2, omitted: null });
    assert.deepEqual(env.evidence, []);
    assert.ok(!("body" in t), "no raw body dump");
  });

  test("a gh issue JSON snapshot: inline acceptance, comment injections with their comment, secrets redacted", async () => {
    const s = await serve(local);
    for (const taskId of ["42", "#42"]) {
      const env = await s.call({ taskId });
      assert.equal(env.ok, true, JSON.stringify(env.data));
      const t = taskOf(env);
      assert.equal(t.id, "#42");
      assert.equal(t.kind, "issue");
      assert.deepEqual(t.labels, ["bug", "pricing"]);
      assert.equal(t.objective, "When the currency of a quote changes, QuoteCache keeps serving the old price.");
      assert.deepEqual(t.acceptanceCriteria.map((c) => c.text), ["cache key includes the currency", "QuoteCacheTest covers the currency change"]);
      assert.equal(t.links.find((l) => l.target.endsWith("QuoteCache.java"))?.exists, true);
      assert.equal(t.links.find((l) => l.target === "#12")?.type, "issue");
      assert.equal(t.comments.length, 4);
      const mallory = t.comments[1]!;
      assert.equal(mallory.author, "mallory");
      assert.deepEqual(mallory.suspiciousInstructions.map((x) => [x.where, x.line, x.ruleId]), [
        ["comment:2", 3, "override-instructions"],
        ["comment:2", 3, "remote-execution"],
      ]);
      assert.ok(t.suspiciousInstructions.some((x) => x.where === "comment:2" && x.ruleId === "remote-execution"));
      assert.ok(t.injectionWarning);
      assert.equal(t.links.find((l) => l.target === "https://paste.example.net/fix.sh")?.inSuspiciousText, true);
      assert.deepEqual(t.userAuthoredInstructions, [], "reproduction steps are not requirements");
      const kim = t.comments[2]!;
      assert.match(kim.body, /\[REDACTED\]/);
      assert.equal((kim as { redacted?: boolean }).redacted, undefined, "redacted before structuring; the task says so");
      assert.equal(t.redacted, true);
      assert.deepEqual(t.redactionReasons, ["aws-access-key-id", "github-token"]);
      const text = JSON.stringify(env);
      for (const secret of FAKE_SECRETS) assert.ok(!text.includes(secret));
    }
  });

  test("maxComments is honoured and includeComments: false leaves comments out", async () => {
    const s = await serve(local);
    const two = taskOf(await s.call({ taskId: "42", maxComments: 2 }));
    assert.deepEqual(two.comments.map((c) => c.author), ["lee", "mallory"]);
    assert.deepEqual(two.commentStats, { total: 4, returned: 2, omitted: null });
    const none = taskOf(await s.call({ taskId: "42", includeComments: false }));
    assert.deepEqual(none.comments, []);
    assert.deepEqual(none.commentStats, { total: 4, returned: 0, omitted: "not_requested" });
    assert.ok(!none.suspiciousInstructions.some((x) => x.where.startsWith("comment:")), "unshown comments are not scanned into the result");
    assert.equal(none.injectionWarning, null);
  });

  test("comments are left out when the operator's policy disallows issue comments", async () => {
    const s = await serve(local, { allowIssueComments: false });
    const env = await s.call({ taskId: "42", includeComments: true, maxComments: 50 });
    const t = taskOf(env);
    assert.deepEqual(t.comments, []);
    assert.equal(t.commentStats.omitted, "disabled_by_policy");
    assert.ok(!JSON.stringify(env).includes("mallory"));
  });

  test("ids that could name a path are rejected as invalid input", async () => {
    const s = await serve(local);
    for (const taskId of ["../x", "a/b", "..", ".hidden", "a\\b", "/etc/passwd", "", "x".repeat(200), "#12a"]) {
      const env = await s.call({ taskId });
      assert.equal(env.ok, false, taskId);
      assert.equal(env.isError, true);
      assert.equal((env.data.error as { category: string }).category, "invalid_input", taskId);
    }
  });

  test("long text is cut after redaction, so a secret on the cut stays redacted; symlinks out of the folder are not followed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "repoctx-task-src-"));
    try {
      const padding = "x".repeat(3980);
      const long = {
        number: 5,
        title: `T${"t".repeat(400)}`,
        body: "Fix it.",
        comments: [{ author: { login: "a" }, body: `${padding} ${FAKE_SECRETS[1]} ${"y".repeat(100)}`, createdAt: "2026-01-01T00:00:00Z" }],
        labels: [],
        url: "https://github.com/acme/pricing-service/issues/5",
      };
      writeFileSync(join(dir, "5.json"), JSON.stringify(long));
      mkdirSync(join(dir, "inner"));
      writeFileSync(join(dir, "inner", "secret.md"), "---\ntitle: inner\n---\nnot reachable by id\n");
      const outside = mkdtempSync(join(tmpdir(), "repoctx-outside-"));
      writeFileSync(join(outside, "x.md"), "---\ntitle: outside\n---\nbody\n");
      symlinkSync(join(outside, "x.md"), join(dir, "escape.md"));
      const s = await serve([{ type: "local", dir }]);
      const env = await s.call({ taskId: "5" });
      const t = taskOf(env);
      assert.equal(t.title.length, 300);
      assert.equal(t.titleTruncated, true);
      assert.equal(t.comments[0]!.truncated, true);
      assert.ok(t.comments[0]!.body.length <= 4000);
      assert.equal(t.truncated, true);
      assert.equal(env.truncated, true);
      assert.ok(!JSON.stringify(env).includes(FAKE_SECRETS[1]!.slice(0, 12)), "not even a prefix of the token survives the cut");
      const escaped = await s.call({ taskId: "escape" });
      assert.equal((escaped.data.error as { category: string }).category, "not_found");
      rmSync(outside, { recursive: true, force: true });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an unknown id is not_found; no configured source says how to configure one", async () => {
    const s = await serve(local);
    const missing = await s.call({ taskId: "TASK-9999" });
    assert.equal((missing.data.error as { category: string }).category, "not_found");
    for (const sources of [null, []]) {
      const none = await serve(sources);
      const env = await none.call({ taskId: "TASK-1234" });
      const err = env.data.error as { category: string; message: string; hint?: string };
      assert.equal(err.category, "not_found");
      assert.match(err.message, /no task source is configured/);
      assert.match(err.hint ?? "", /taskSources/);
    }
  });

  describe("GitHub REST provider (recorded responses replayed on 127.0.0.1)", () => {
    let server: HttpServer;
    let apiUrl: string;
    const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];
    let mode: "ok" | "error500" | "unauthorized" = "ok";

    before(async () => {
      process.env[TOKEN_ENV] = FAKE_TOKEN;
      server = createHttpServer((req, res) => {
        seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
        const reply = (status: number, body: string) => {
          res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
          res.end(body);
        };
        if (mode === "error500") return reply(500, JSON.stringify({ message: "Server Error" }));
        if (mode === "unauthorized") return reply(401, JSON.stringify({ message: `Bad credentials ${req.headers.authorization ?? ""}` }));
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        if (url.pathname === "/api/v3/repos/acme/pricing-service/issues/7") return reply(200, readFileSync(join(RECORDED, "issue-7.json"), "utf8"));
        if (url.pathname === "/api/v3/repos/acme/pricing-service/issues/7/comments") {
          const all = JSON.parse(readFileSync(join(RECORDED, "issue-7-comments.json"), "utf8")) as unknown[];
          return reply(200, JSON.stringify(all.slice(0, Number(url.searchParams.get("per_page") ?? "30"))));
        }
        return reply(404, JSON.stringify({ message: "Not Found" }));
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v3`;
    });
    after(async () => {
      delete process.env[TOKEN_ENV];
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const github = (): TaskSource[] => [{ type: "github", repo: "acme/pricing-service", apiUrl, tokenEnv: TOKEN_ENV }];

    test("reads the issue and its comments with the token from the environment", async () => {
      mode = "ok";
      seen.length = 0;
      const s = await serve(github());
      const env = await s.call({ taskId: "#7", maxComments: 2 });
      assert.equal(env.ok, true, JSON.stringify(env.data));
      assert.equal(env.freshness, "external_snapshot");
      assert.deepEqual(seen.map((r) => `${r.method} ${r.url}`), [
        "GET /api/v3/repos/acme/pricing-service/issues/7",
        "GET /api/v3/repos/acme/pricing-service/issues/7/comments?per_page=2",
      ]);
      for (const r of seen) {
        assert.equal(r.headers.authorization, `Bearer ${FAKE_TOKEN}`);
        assert.equal(r.headers.accept, "application/vnd.github+json");
      }
      const t = taskOf(env);
      assert.equal(t.id, "#7");
      assert.equal(t.source, "github");
      assert.equal(t.url, "https://github.com/acme/pricing-service/issues/7");
      assert.deepEqual(t.labels, ["enhancement", "pricing"]);
      assert.equal(t.objective, "Quote totals are rounded half-up; finance needs half-even (banker's rounding).");
      assert.equal(t.acceptanceCriteria.length, 2);
      assert.deepEqual(t.nonGoals.map((n) => n.text), ["Currency conversion"]);
      assert.equal(t.links.find((l) => l.target === QUOTE_SERVICE)?.exists, true);
      assert.deepEqual(t.commentStats, { total: 3, returned: 2, omitted: null });
      assert.deepEqual(t.comments.map((c) => c.author), ["ben", "drive-by"]);
      const rules = t.suspiciousInstructions.map((x) => `${x.where}:${x.ruleId}`);
      assert.ok(rules.includes("body:hidden-agent-comment"), rules.join());
      assert.ok(rules.includes("comment:2:role-reassignment"), rules.join());
      assert.ok(rules.includes("comment:2:exfiltration"), rules.join());
      assert.ok(t.injectionWarning);
    });

    test("comments are not even requested when policy or caller leaves them out", async () => {
      mode = "ok";
      seen.length = 0;
      await (await serve(github(), { allowIssueComments: false })).call({ taskId: "7" });
      await (await serve(github())).call({ taskId: "7", maxComments: 0 });
      assert.deepEqual(seen.map((r) => r.url), ["/api/v3/repos/acme/pricing-service/issues/7", "/api/v3/repos/acme/pricing-service/issues/7"]);
    });

    test("a missing issue is not_found; non-numeric ids are not sent to GitHub", async () => {
      mode = "ok";
      seen.length = 0;
      const s = await serve(github());
      const env = await s.call({ taskId: "404" });
      assert.equal((env.data.error as { category: string }).category, "not_found");
      const named = await s.call({ taskId: "TASK-1234" });
      assert.equal((named.data.error as { category: string }).category, "not_found");
      assert.deepEqual(seen.map((r) => r.url), ["/api/v3/repos/acme/pricing-service/issues/404"]);
    });

    test("HTTP 500 and 401 are index_unavailable, and the token never appears", async () => {
      const s = await serve(github());
      for (const m of ["error500", "unauthorized"] as const) {
        mode = m;
        const env = await s.call({ taskId: "7" });
        const err = env.data.error as { category: string; message: string };
        assert.equal(err.category, "index_unavailable", m);
        assert.match(err.message, m === "error500" ? /HTTP 500/ : /HTTP 401/);
        assert.ok(!JSON.stringify(env).includes(FAKE_TOKEN));
      }
      mode = "ok";
    });

    test("sources are tried in order: a failing source is skipped (with a warning) when a later one has the task", async () => {
      mode = "error500";
      const s = await serve([...github(), ...local]);
      const env = await s.call({ taskId: "42" });
      assert.equal(env.ok, true);
      assert.equal(taskOf(env).source, "local");
      assert.ok(env.warnings.some((w) => w.code === "task_source_unavailable"));
      mode = "ok";
      const first = await (await serve([...local, ...github()])).call({ taskId: "7" });
      assert.equal(taskOf(first).source, "github", "the local folder has no 7, GitHub does");
    });

    test("an unreachable source is index_unavailable", async () => {
      const closed = createHttpServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const s = await serve([{ type: "github", repo: "acme/pricing-service", apiUrl: `http://127.0.0.1:${port}`, tokenEnv: TOKEN_ENV }]);
      const env = await s.call({ taskId: "7" });
      const err = env.data.error as { category: string; message: string };
      assert.equal(err.category, "index_unavailable");
      assert.match(err.message, /could not be reached/);
      assert.ok(!err.message.includes(String(port)), "no host details in the message");
    });
  });
});
