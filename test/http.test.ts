import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { resolveHttpSettings, type HttpSettings } from "../src/config/http.js";
import { ConfigError } from "../src/config/resolve.js";
import { HttpConfigSchema } from "../src/config/schema.js";
import type { Logger } from "../src/core/log.js";
import { repoSet, type ServedRepos } from "../src/service/deps.js";
import type { Envelope } from "../src/service/envelope.js";
import { listedInputSchema, serverVersion } from "../src/mcp/server.js";
import { TOOLS } from "../src/mcp/tools/index.js";
import { startHttpServer, type HttpServerHandle } from "../src/mcp/transports/http.js";
import { CLI, PROJECT_ROOT } from "./helpers/cli.js";
import { callTool, connect, serveCli, stop } from "./helpers/http-cli.js";
import { inspectorSkip, runInspector } from "./helpers/inspector.js";
import { B_ONLY_PATH, B_ONLY_TERM, REPO_A, REPO_B, buildTwoRepos, type TwoRepos } from "./helpers/two-repos.js";

const TOKEN_1 = "tok1-4f9c2a7e1b3d5f6a8c0e2b4d6f8a1c3e";
const TOKEN_2 = "tok2-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b";
const ENV = { REPOCTX_HTTP_TOKENS: `${TOKEN_1}, ${TOKEN_2}` };
const LOOPBACK = { host: "127.0.0.1", port: 0 };
const INIT = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } };
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function settingsWith(config: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = ENV): HttpSettings {
  return resolveHttpSettings(HttpConfigSchema.parse(config), LOOPBACK, env);
}

function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** Every log line the in-process servers write, to check that no token ever appears in one. */
const logLines: string[] = [];
const logger: Logger = { log: (level, message, fields) => logLines.push(JSON.stringify({ level, message, ...fields })) };

function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
}

/** A raw request with headers fetch will not let a caller set (Host) or a body sent in chunks with no length. */
function rawRequest(url: string, opts: { method: string; headers: Record<string, string>; chunks?: string[] }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: opts.method, headers: opts.headers }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    for (const c of opts.chunks ?? []) req.write(c);
    req.end();
  });
}

describe("Streamable HTTP transport", () => {
  let two: TwoRepos;
  const servers: HttpServerHandle[] = [];
  const start = async (served: ServedRepos, settings: HttpSettings): Promise<string> => {
    const s = await startHttpServer({ served, settings, logger });
    servers.push(s);
    return s.url;
  };
  let single: string;
  let multi: string;

  before(async () => {
    two = await buildTwoRepos();
    single = await start(two.deps.a, settingsWith());
    multi = await start(repoSet([two.deps.a, two.deps.b]), settingsWith());
  });
  after(async () => {
    for (const s of servers) await s.close();
    await two.cleanup();
    const leaked = logLines.filter((l) => l.includes(TOKEN_1) || l.includes(TOKEN_2));
    assert.deepEqual(leaked, [], "no log line carries a token");
  });

  test("the listening URL names the port actually bound", () => {
    assert.match(single, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.notEqual(new URL(single).port, "0");
    assert.ok(logLines.some((l) => JSON.parse(l).message === "listening" && JSON.parse(l).url === single));
  });

  test("GET /healthz answers 200 with no data and needs no token", async () => {
    const res = await fetch(new URL("/healthz", single));
    assert.equal(res.status, 200);
    const text = await res.text();
    assert.deepEqual(JSON.parse(text), { status: "ok" });
    assert.ok(!text.includes(REPO_A) && !text.includes(serverVersion()));
  });

  test("no token and a wrong token both get 401 with WWW-Authenticate: Bearer and the same body revealing nothing", async () => {
    const missing = await post(single, INIT);
    const wrong = await post(single, INIT, bearer("wrong-token-of-some-length-0123456789"));
    const short = await post(single, INIT, bearer("x"));
    const scheme = await post(single, INIT, { authorization: `Basic ${TOKEN_1}` });
    const bodies = [];
    for (const res of [missing, wrong, short, scheme]) {
      assert.equal(res.status, 401);
      assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer\b/);
      assert.equal(res.headers.get("mcp-session-id"), null);
      bodies.push(await res.text());
    }
    assert.equal(new Set(bodies).size, 1, "one body for every refusal");
    for (const leak of [REPO_A, REPO_B, serverVersion(), "repoctx", "pricing"]) assert.ok(!bodies[0]!.includes(leak), `body mentions ${leak}`);
  });

  test("a foreign Origin or a Host that does not name this machine is refused with 403; loopback origins pass", async () => {
    const evil = await post(single, INIT, { ...bearer(TOKEN_1), origin: "https://evil.example" });
    assert.equal(evil.status, 403);
    const nullOrigin = await post(single, INIT, { ...bearer(TOKEN_1), origin: "null" });
    assert.equal(nullOrigin.status, 403);
    const local = await post(single, INIT, { ...bearer(TOKEN_1), origin: "http://localhost:5173" });
    assert.equal(local.status, 200);
    assert.equal(local.headers.get("access-control-allow-origin"), "http://localhost:5173");
    const rebound = await rawRequest(single, { method: "POST", headers: { ...MCP_HEADERS, ...bearer(TOKEN_1), host: "evil.example:8808" }, chunks: [JSON.stringify(INIT)] });
    assert.equal(rebound.status, 403);
    const configured = await start(two.deps.a, settingsWith({ allowedOrigins: ["https://agents.example.com"] }));
    assert.equal((await post(configured, INIT, { ...bearer(TOKEN_1), origin: "https://agents.example.com" })).status, 200);
    assert.equal((await post(configured, INIT, { ...bearer(TOKEN_1), origin: "https://agents.example.com.evil.example" })).status, 403);
  });

  test("a body over the limit is refused with 413, declared or streamed", async () => {
    const url = await start(two.deps.a, settingsWith({ maxRequestBytes: 2048 }));
    const big = JSON.stringify({ ...INIT, params: { ...INIT.params, clientInfo: { name: "x".repeat(4096), version: "0" } } });
    const declared = await post(url, big, bearer(TOKEN_1));
    assert.equal(declared.status, 413);
    const streamed = await rawRequest(url, { method: "POST", headers: { ...MCP_HEADERS, ...bearer(TOKEN_1), "transfer-encoding": "chunked" }, chunks: [big.slice(0, 1500), big.slice(1500)] });
    assert.equal(streamed.status, 413);
    assert.equal((await post(url, INIT, bearer(TOKEN_1))).status, 200, "a body under the limit is served");
    assert.equal((await post(url, "{not json", bearer(TOKEN_1))).status, 400);
  });

  test("each token has its own rate limit: 429 with Retry-After once it is spent", async () => {
    const url = await start(two.deps.a, settingsWith({ rateLimitPerMinute: 3 }));
    for (let i = 0; i < 3; i++) assert.equal((await post(url, INIT, bearer(TOKEN_1))).status, 200);
    const limited = await post(url, INIT, bearer(TOKEN_1));
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get("retry-after")) >= 1);
    assert.equal((await post(url, INIT, bearer(TOKEN_2))).status, 200, "another token is not held back");
  });

  test("a valid token lists the tools with their usual schemas and calls search_code", async () => {
    const { client } = await connect(single, TOKEN_1);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, TOOLS.length);
      for (const t of tools) assert.deepEqual(t.inputSchema, listedInputSchema(TOOLS.find((d) => d.name === t.name)!), t.name);
      const env = await callTool(client, "search_code", { query: "isQuoteExpired" });
      assert.equal(env.ok, true);
      assert.equal((env.data.results as { path: string }[])[0]!.path, "services/pricing/src/main/java/com/acme/pricing/QuoteService.java");
    } finally {
      await client.close();
    }
  });

  test("two repositories side by side: every tool takes repoId and nothing crosses over", async () => {
    const { client } = await connect(multi, TOKEN_2);
    try {
      const { tools } = await client.listTools();
      for (const t of tools) {
        const schema = t.inputSchema as { properties: Record<string, { enum?: string[] }>; required?: string[] };
        assert.deepEqual(schema.properties.repoId?.enum, [REPO_A, REPO_B], t.name);
        assert.ok(schema.required?.includes("repoId"), t.name);
      }
      const a = await callTool(client, "search_code", { repoId: REPO_A, query: "Quote" });
      assert.equal(a.repoId, REPO_A);
      assert.ok(a.evidence.length > 0);
      assert.ok(a.evidence.every((e) => !e.path.startsWith("billing/")), "A's results hold no B path");
      assert.deepEqual((await callTool(client, "search_code", { repoId: REPO_A, query: B_ONLY_TERM })).evidence, []);
      const b = await callTool(client, "search_code", { repoId: REPO_B, query: B_ONLY_TERM });
      assert.ok(b.evidence.some((e) => e.path === B_ONLY_PATH));
      const slice = await callTool(client, "get_file_slice", { repoId: REPO_A, path: B_ONLY_PATH });
      assert.equal((slice.data.error as { category: string }).category, "not_found");
      const escape = await callTool(client, "get_file_slice", { repoId: REPO_A, path: `../billing-repo/${B_ONLY_PATH}` });
      assert.equal((escape.data.error as { category: string }).category, "query_rejected");
      const none = await callTool(client, "search_code", { query: "Quote" });
      assert.equal((none.data.error as { category: string }).category, "invalid_input");
    } finally {
      await client.close();
    }
  });

  test("a session belongs to the token that opened it; DELETE ends it", async () => {
    const { client, transport } = await connect(single, TOKEN_1);
    const sessionId = transport.sessionId!;
    assert.ok(sessionId);
    const list = { jsonrpc: "2.0", id: 7, method: "tools/list", params: {} };
    const session = { "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
    const stolen = await post(single, list, { ...bearer(TOKEN_2), ...session });
    assert.equal(stolen.status, 404);
    assert.doesNotMatch(await stolen.text(), /tools/);
    const stolenStream = await fetch(single, { method: "GET", headers: { ...bearer(TOKEN_2), ...session, accept: "text/event-stream" } });
    assert.equal(stolenStream.status, 404);
    const stolenEnd = await fetch(single, { method: "DELETE", headers: { ...bearer(TOKEN_2), ...session } });
    assert.equal(stolenEnd.status, 404);
    const own = await post(single, list, { ...bearer(TOKEN_1), ...session });
    assert.equal(own.status, 200);
    assert.equal(((await own.json()) as { result: { tools: unknown[] } }).result.tools.length, TOOLS.length);
    await transport.terminateSession();
    assert.equal((await post(single, list, { ...bearer(TOKEN_1), ...session })).status, 404, "ended session");
    await client.close();
    assert.equal((await post(single, list, bearer(TOKEN_1))).status, 400, "no session id and not initialize");
  });

  test("live sessions are capped (503) and idle ones are closed", async () => {
    const url = await start(two.deps.a, { ...settingsWith({ maxSessions: 1 }), sessionIdleMs: 150 });
    const first = await post(url, INIT, bearer(TOKEN_1));
    assert.equal(first.status, 200);
    const sessionId = first.headers.get("mcp-session-id")!;
    const full = await post(url, INIT, bearer(TOKEN_2));
    assert.equal(full.status, 503);
    assert.ok(full.headers.get("retry-after"));
    await new Promise((r) => setTimeout(r, 600));
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
    assert.equal((await post(url, list, { ...bearer(TOKEN_1), "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" })).status, 404, "the idle session was closed");
    assert.equal((await post(url, INIT, bearer(TOKEN_2))).status, 200, "its place is free again");
    assert.ok(logLines.some((l) => JSON.parse(l).message === "session closed" && JSON.parse(l).why === "idle"));
  });

  test("unknown paths are 404 and other methods 405", async () => {
    assert.equal((await fetch(new URL("/other", single), { headers: bearer(TOKEN_1) })).status, 404);
    assert.equal((await fetch(single, { method: "PUT", headers: bearer(TOKEN_1) })).status, 405);
  });
});

describe("HTTP settings", () => {
  test("a non-loopback host without tokens is refused at start", async () => {
    assert.throws(() => resolveHttpSettings(HttpConfigSchema.parse({}), { host: "0.0.0.0", port: 0 }, {}), (e: unknown) => e instanceof ConfigError && /non-loopback/.test(e.message));
    const open = resolveHttpSettings(HttpConfigSchema.parse({}), LOOPBACK, {});
    assert.deepEqual(open.tokens, [], "loopback may run open");
    await assert.rejects(
      startHttpServer({ served: {} as ServedRepos, settings: { ...open, host: "0.0.0.0" }, logger }),
      (e: unknown) => e instanceof ConfigError,
    );
  });

  test("tokens come from the policy file (inline or by variable) and REPOCTX_HTTP_TOKENS; errors never show a value", () => {
    const config = HttpConfigSchema.parse({ tokens: [{ name: "ci", tokenEnv: "CI_REPOCTX_TOKEN" }, { name: "inline", token: TOKEN_2 }] });
    const s = resolveHttpSettings(config, { host: "0.0.0.0", port: 0 }, { CI_REPOCTX_TOKEN: TOKEN_1, REPOCTX_HTTP_TOKENS: "zzzzzzzzzzzzzzzzzzzzzz" });
    assert.deepEqual(s.tokens.map((t) => t.name), ["ci", "inline", "env-1"]);
    assert.ok(s.tokens.every((t) => t.sha256.length === 32), "only digests are kept");
    assert.throws(() => resolveHttpSettings(config, LOOPBACK, {}), /CI_REPOCTX_TOKEN is not set/);
    assert.throws(() => resolveHttpSettings(config, LOOPBACK, { CI_REPOCTX_TOKEN: "short-secret" }), (e: unknown) => e instanceof ConfigError && !e.message.includes("short-secret"));
    assert.throws(() => resolveHttpSettings(HttpConfigSchema.parse({}), LOOPBACK, { REPOCTX_HTTP_TOKENS: "tiny" }), (e: unknown) => e instanceof ConfigError && !e.message.includes("tiny"));
    assert.equal(HttpConfigSchema.safeParse({ tokens: [{ name: "a", token: TOKEN_1, tokenEnv: "X" }] }).success, false, "one of token and tokenEnv");
    assert.equal(HttpConfigSchema.safeParse({ tokens: [{ name: "a", tokenEnv: "X" }, { name: "a", tokenEnv: "Y" }] }).success, false, "unique names");
    assert.equal(HttpConfigSchema.safeParse({ allowedOrigins: ["file:///etc"] }).success, false);
  });
});

describe("repoctx serve --http (built CLI)", () => {
  let two: TwoRepos;
  let dir: string;
  before(async () => {
    two = await buildTwoRepos();
    dir = mkdtempSync(join(tmpdir(), "repoctx-http-cli-"));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await two.cleanup();
  });

  test("two --repo over one store, driven by the MCP Inspector CLI with a bearer token; SIGTERM stops it cleanly", { skip: inspectorSkip() }, async () => {
    const { proc, url, stderr } = await serveCli(["--repo", two.a.root, "--repo", two.bRoot, "--store", two.storePath], ENV);
    const inspector = (...args: string[]) => runInspector([url, "--transport", "http", ...args], dir);
    try {
      const listed = inspector("--header", `Authorization: Bearer ${TOKEN_2}`, "--method", "tools/list");
      assert.equal(listed.status, 0, listed.stderr);
      const tools = JSON.parse(listed.stdout).tools as { name: string; inputSchema: { properties: Record<string, { enum?: string[] }> } }[];
      assert.equal(tools.length, TOOLS.length);
      for (const t of tools) assert.deepEqual(t.inputSchema.properties.repoId?.enum?.sort(), [REPO_B, REPO_A].sort(), t.name);
      const called = inspector("--header", `Authorization: Bearer ${TOKEN_2}`, "--method", "tools/call", "--tool-name", "search_code", "--tool-arg", `repoId=${REPO_B}`, `query=${B_ONLY_TERM}`);
      assert.equal(called.status, 0, called.stderr);
      const answer = JSON.parse(called.stdout) as { isError: boolean; content: { text: string }[] };
      assert.equal(answer.isError, false);
      // The compact answer as text: each file's heading is its path, then its facts in parentheses.
      assert.ok(answer.content[0]!.text.split("\n").some((l) => l.startsWith(`${B_ONLY_PATH} (`)), answer.content[0]!.text);
      const refused = inspector("--header", "Authorization: Bearer not-a-token-at-all-0000000000", "--method", "tools/list");
      assert.notEqual(refused.status, 0, "a wrong token gets nothing");
    } finally {
      assert.equal(await stop(proc), 0, stderr());
    }
    assert.match(stderr(), /"message":"stopped"/);
    assert.ok(!stderr().includes(TOKEN_1) && !stderr().includes(TOKEN_2), "tokens never reach the log");
  });

  test("without --repo it serves every ready index in the store, with tokens from the policy file; a non-loopback host without tokens does not start", async () => {
    const policy = join(dir, "policy.yml");
    writeFileSync(policy, "http:\n  tokens:\n    - name: ci-agent\n      tokenEnv: CI_REPOCTX_TOKEN\n  rateLimitPerMinute: 120\n");
    const { proc, url, stderr } = await serveCli(["--store", two.storePath, "--policy", policy], { CI_REPOCTX_TOKEN: TOKEN_1, REPOCTX_HTTP_TOKENS: "" });
    try {
      assert.equal((await post(url, INIT, bearer(TOKEN_2))).status, 401, "only the policy's token");
      const { client } = await connect(url, TOKEN_1);
      const { tools } = await client.listTools();
      assert.deepEqual((tools[0]!.inputSchema as { properties: Record<string, { enum?: string[] }> }).properties.repoId?.enum?.sort(), [REPO_A, REPO_B].sort());
      await client.close();
    } finally {
      assert.equal(await stop(proc), 0, stderr());
    }
    const open = spawnSync(process.execPath, [CLI, "serve", "--http", "--host", "0.0.0.0", "--port", "0", "--store", two.storePath], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, REPOCTX_HTTP_TOKENS: "" },
    });
    assert.equal(open.status, 2, open.stderr);
    assert.match(open.stderr, /non-loopback host needs bearer tokens/);
    assert.match(stderr(), /"tokens":\["ci-agent"\]/);
  });

  test("a policy file inside any served work tree is refused, not only inside the first", () => {
    const inside = join(two.bRoot, "policy.yml");
    writeFileSync(inside, "http:\n  rateLimitPerMinute: 100000\n");
    const r = spawnSync(process.execPath, [CLI, "serve", "--http", "--port", "0", "--repo", two.a.root, "--repo", two.bRoot, "--store", two.storePath, "--policy", inside], {
      cwd: PROJECT_ROOT,
      encoding: "utf8",
      timeout: 60_000,
      env: { ...process.env, ...ENV },
    });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /inside the served repository/);
  });
});
