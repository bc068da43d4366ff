import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ClientRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { MAX_DEPTH, SERVED_METHODS, checkBatch, classify, deeperThan } from "../src/mcp/jsonrpc-checks.js";
import { judgeForSession, judgeOpening } from "../src/mcp/transports/http-body.js";
import { TOOLS } from "../src/mcp/tools/index.js";
import { runCli } from "./helpers/cli.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";
import { serveCli, stop } from "./helpers/http-cli.js";
import { INIT_PARAMS, MCP_HEADERS, RawHttpSession, RawStdio, answerProblem, idKey, toolAnswer, type Answer, type Id } from "./helpers/raw-jsonrpc.js";

/** One expected answer: its id and its error code, or "result". */
type Expected = [Id | null, number | "result"];

interface Case {
  name: string;
  /** The line (stdio) or body (HTTP) sent, as it is. */
  body: string;
  stdio: Expected[];
  /** Over HTTP: the status and the answers in the body (none: an empty body). */
  http: { status: number; answers: Expected[] };
}

const PARSE = -32700;
const INVALID_REQUEST = -32600;
const NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const SERVER_ERROR = -32000;

const j = (v: unknown): string => JSON.stringify(v);
const req = (id: Id | null, method: unknown, params?: unknown, extra: Record<string, unknown> = {}): string =>
  j({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }), ...extra });
const call = (id: Id, params: unknown): string => req(id, "tools/call", params);
const ping = (id: Id): { jsonrpc: "2.0"; id: Id; method: string } => ({ jsonrpc: "2.0", id, method: "ping" });

/** Refused before the SDK: the same answer on both transports, with HTTP 400. */
function refused(name: string, body: string, id: Id | null, code: number): Case {
  return { name, body, stdio: [[id, code]], http: { status: 400, answers: [[id, code]] } };
}

/** Answered through the server (a JSON-RPC error or a result): HTTP 200. */
function answered(name: string, body: string, id: Id, code: number | "result"): Case {
  return { name, body, stdio: [[id, code]], http: { status: 200, answers: [[id, code]] } };
}

/** A notification or a client's response: never answered; over HTTP 202 when taken, 400 with `id: null` when malformed. */
function unanswered(name: string, body: string, httpStatus: 202 | 400): Case {
  return { name, body, stdio: [], http: { status: httpStatus, answers: httpStatus === 400 ? [[null, INVALID_REQUEST]] : [] } };
}

const CASES: Case[] = [
  refused("a line that is not JSON: -32700 with id null", '{"jsonrpc":"2.0","id":1,', null, PARSE),
  refused("JSON that is not an object: -32600 with id null", "42", null, INVALID_REQUEST),
  refused('jsonrpc other than "2.0": -32600 with the id', j({ jsonrpc: "1.0", id: "c-version", method: "ping" }), "c-version", INVALID_REQUEST),
  refused("no jsonrpc member: -32600", j({ id: "c-nojsonrpc", method: "ping" }), "c-nojsonrpc", INVALID_REQUEST),
  refused("a method that is not a string: -32600", req("c-method", 7), "c-method", INVALID_REQUEST),
  refused("id null: -32600 with id null", req(null, "ping"), null, INVALID_REQUEST),
  refused("a fractional id: -32600 with id null (it cannot be echoed)", req(1.5, "ping"), null, INVALID_REQUEST),
  refused("an object as id: -32600 with id null", req({ a: 1 } as unknown as Id, "ping"), null, INVALID_REQUEST),
  refused("tools/call with params 17 (the issue's message): -32600 with id 100", call(100, 17), 100, INVALID_REQUEST),
  refused("tools/call with params null: -32600", call("c-pnull", null), "c-pnull", INVALID_REQUEST),
  refused("tools/call with params a string: -32600", call("c-pstring", "search_code"), "c-pstring", INVALID_REQUEST),
  refused("tools/call with params an array: -32600", call("c-parray", [{ name: "search_code" }]), "c-parray", INVALID_REQUEST),
  refused("an unexpected top-level member: -32600", req("c-extra", "ping", undefined, { extra: true }), "c-extra", INVALID_REQUEST),
  refused("neither method nor result: -32600", j({ jsonrpc: "2.0", id: "c-empty" }), "c-empty", INVALID_REQUEST),
  refused(
    "a message nested deeper than the limit: -32602, before any handler walks it",
    call("c-deep", { name: "search_code", arguments: { query: JSON.parse(`${"[".repeat(MAX_DEPTH)}"x"${"]".repeat(MAX_DEPTH)}`) as unknown } }),
    "c-deep",
    INVALID_PARAMS,
  ),
  refused("params._meta of the wrong type: -32602", req("c-meta", "ping", { _meta: 5 }), "c-meta", INVALID_PARAMS),
  answered("tools/call with a number as name: -32602", call("c-name", { name: 5, arguments: {} }), "c-name", INVALID_PARAMS),
  answered("tools/call with arguments an array: -32602", call("c-args-array", { name: "search_code", arguments: ["x"] }), "c-args-array", INVALID_PARAMS),
  answered("tools/call with arguments a string: -32602", call("c-args-string", { name: "search_code", arguments: "query=x" }), "c-args-string", INVALID_PARAMS),
  answered("tools/call without params: -32602", req("c-noparams", "tools/call"), "c-noparams", INVALID_PARAMS),
  answered("tools/call asking for a task: -32602 (no tasks capability), not -32603", call("c-task", { name: "inspect_index", arguments: {}, task: { ttl: 1000 } }), "c-task", INVALID_PARAMS),
  answered("resources/read without a uri: -32602", req("c-uri", "resources/read", {}), "c-uri", INVALID_PARAMS),
  answered("prompts/get without a name: -32602", req("c-prompt", "prompts/get", { arguments: {} }), "c-prompt", INVALID_PARAMS),
  answered("completion/complete with a wrong ref: -32602", req("c-complete", "completion/complete", { ref: 5, argument: { name: "a", value: "b" } }), "c-complete", INVALID_PARAMS),
  answered("an unknown method: -32601", req("c-unknown", "tools/execute", {}), "c-unknown", NOT_FOUND),
  answered("a method of the protocol this server does not serve: -32601", req("c-setlevel", "logging/setLevel", { level: "debug" }), "c-setlevel", NOT_FOUND),
  answered("an unknown tool: a result, the categorized error naming the tools", call("c-tool", { name: "rm_rf", arguments: {} }), "c-tool", "result"),
  unanswered("a notification: no answer", j({ jsonrpc: "2.0", method: "notifications/roots/list_changed" }), 202),
  unanswered("a notification with params 17: no answer", j({ jsonrpc: "2.0", method: "notifications/initialized", params: 17 }), 400),
  unanswered("a notification whose method is a number: no answer", j({ jsonrpc: "2.0", method: 5 }), 400),
  unanswered("a response to a request never sent: no answer", j({ jsonrpc: "2.0", id: "c-response", result: {} }), 202),
  {
    name: "a batch where the session's version (2025-06-18) has none: -32600 for each request",
    body: j([ping("c-b1"), ping("c-b2")]),
    stdio: [["c-b1", INVALID_REQUEST], ["c-b2", INVALID_REQUEST]],
    http: { status: 400, answers: [["c-b1", INVALID_REQUEST], ["c-b2", INVALID_REQUEST]] },
  },
  refused("an empty batch: -32600 with id null", "[]", null, INVALID_REQUEST),
];

/** Batch cases for a session that negotiated 2025-03-26, where batches are allowed. */
const BATCH_CASES: Case[] = [
  {
    name: "a batch runs: one answer line holding each request's answer, none for its notification",
    body: j([ping("d-1"), { jsonrpc: "2.0", id: "d-2", method: "tools/list" }, { jsonrpc: "2.0", method: "notifications/initialized" }]),
    stdio: [["d-1", "result"], ["d-2", "result"]],
    http: { status: 200, answers: [["d-1", "result"], ["d-2", "result"]] },
  },
  {
    name: "a batch member with bad params gets -32602 inside the batch's answer; the others run",
    body: j([ping("d-3"), { jsonrpc: "2.0", id: "d-4", method: "tools/call", params: { name: 4 } }]),
    stdio: [["d-3", "result"], ["d-4", INVALID_PARAMS]],
    http: { status: 200, answers: [["d-3", "result"], ["d-4", INVALID_PARAMS]] },
  },
  {
    name: "a batch with an invalid member is refused whole: each request answered -32600, the bad member with its own error",
    body: j([ping("d-5"), { jsonrpc: "2.0", id: "d-6", method: "ping", params: 17 }, 7]),
    stdio: [["d-5", INVALID_REQUEST], ["d-6", INVALID_REQUEST], [null, INVALID_REQUEST]],
    http: { status: 400, answers: [["d-5", INVALID_REQUEST], ["d-6", INVALID_REQUEST], [null, INVALID_REQUEST]] },
  },
  {
    name: "a batch using one id twice is refused: both answered -32600",
    body: j([ping("d-7"), ping("d-7")]),
    stdio: [["d-7", INVALID_REQUEST], ["d-7", INVALID_REQUEST]],
    http: { status: 400, answers: [["d-7", INVALID_REQUEST], ["d-7", INVALID_REQUEST]] },
  },
  {
    name: "initialize inside a batch is refused",
    body: j([{ jsonrpc: "2.0", id: "d-8", method: "initialize", params: { protocolVersion: "2025-03-26", ...INIT_PARAMS } }]),
    stdio: [["d-8", INVALID_REQUEST]],
    http: { status: 400, answers: [["d-8", INVALID_REQUEST]] },
  },
];

function keys(answers: readonly Answer[]): string[] {
  return answers.map((a) => `${idKey(a.id)}:${a.error ? String(a.error.code) : "result"}`).sort();
}

function expectedKeys(e: readonly Expected[]): string[] {
  return e.map(([id, code]) => `${idKey(id)}:${code}`).sort();
}

function assertWellFormed(answers: readonly Answer[]): void {
  for (const a of answers) assert.equal(answerProblem(a), null, JSON.stringify(a));
}

/**
 * Sends a case's line, then a ping; the answers that came between are the case's own. Waits for the expected ones
 * first (a tool call may be answered after the ping), so a missing answer fails on its deadline, not on a count.
 */
async function stdioAnswers(s: RawStdio, body: string, expected: readonly Expected[], sentinel: string): Promise<Answer[]> {
  const start = s.all.length;
  s.send(body);
  const want = expectedKeys(expected);
  await s.until(() => want.every((k) => keys(s.all.slice(start)).includes(k)), 30_000, `answers ${want.join(", ")}`);
  await s.request(ping(sentinel));
  return s.all.slice(start).filter((a) => a.id !== sentinel);
}

function httpAnswers(body: unknown): Answer[] {
  return body === null ? [] : Array.isArray(body) ? (body as Answer[]) : [body as Answer];
}

describe("JSON-RPC conformance", () => {
  let repo: BuiltRepo;
  let storeDir: string;
  let store: string;
  before(() => {
    repo = buildGoldenRepo();
    storeDir = mkdtempSync(join(tmpdir(), "repoctx-jsonrpc-"));
    store = join(storeDir, "index.db");
    assert.equal(runCli(["index", repo.root, "--store", store, "--quiet"]).status, 0);
  });
  after(() => {
    rmSync(storeDir, { recursive: true, force: true });
    repo.cleanup();
  });

  describe("over stdio (the built server)", () => {
    let s: RawStdio;
    let old: RawStdio;
    before(async () => {
      s = await RawStdio.start(["--repo", repo.root, "--store", store], "2025-06-18");
      old = await RawStdio.start(["--repo", repo.root, "--store", store], "2025-03-26");
    });
    after(async () => {
      await s.close();
      await old.close();
    });

    CASES.forEach((c, i) => {
      test(c.name, async () => {
        const got = await stdioAnswers(s, c.body, c.stdio, `sentinel-${i}`);
        assertWellFormed(got);
        assert.deepEqual(keys(got), expectedKeys(c.stdio));
      });
    });

    test("the params checks know exactly the methods the server serves", async () => {
      const methods = ClientRequestSchema.options.map((o) => o.shape.method.value);
      for (const [i, method] of methods.entries()) {
        const a = await s.request({ jsonrpc: "2.0", id: `c-served-${i}`, method, params: {} });
        assert.equal(a.error?.code === NOT_FOUND, !SERVED_METHODS.includes(method), `${method}: ${JSON.stringify(a).slice(0, 200)}`);
      }
    });

    test("the unknown tool's error is categorized and names every tool", async () => {
      const a = await s.request({ jsonrpc: "2.0", id: "c-tool-2", method: "tools/call", params: { name: "rm_rf", arguments: {} } });
      assert.equal(a.result?.isError, true);
      const error = toolAnswer(a)?.data?.error;
      assert.equal(error?.category, "invalid_input");
      for (const t of TOOLS) assert.ok(error?.message?.includes(t.name), `names ${t.name}`);
    });

    test("a blank line is not answered", async () => {
      assert.deepEqual(await stdioAnswers(s, "   ", [], "sentinel-blank"), []);
    });

    test("a line over the size limit is skipped to its newline and answered -32600 with id null; the next line is served", async () => {
      const huge = call("c-huge", { name: "search_code", arguments: { query: "x".repeat(10 * 1024 * 1024 + 10) } });
      const got = await stdioAnswers(s, huge, [[null, INVALID_REQUEST]], "sentinel-huge");
      assert.deepEqual(keys(got), [`null:${INVALID_REQUEST}`]);
    });

    test("a request reusing the id of one in progress is refused -32600; the first is still answered", async () => {
      const first = call("c-dup", { name: "build_context_package", arguments: { purpose: "editing", goal: "Validate quote expiry" } });
      const got = await stdioAnswers(s, `${first}\n${first}`, [["c-dup", INVALID_REQUEST], ["c-dup", "result"]], "sentinel-dup");
      assert.deepEqual(keys(got), ['"c-dup":-32600', '"c-dup":result']);
    });

    BATCH_CASES.forEach((c, i) => {
      test(`2025-03-26: ${c.name}`, async () => {
        const lines = old.batchLines.length;
        const got = await stdioAnswers(old, c.body, c.stdio, `sentinel-batch-${i}`);
        assertWellFormed(got);
        assert.deepEqual(keys(got), expectedKeys(c.stdio));
        assert.equal(old.batchLines.length, lines + 1, "the batch is answered in one line");
      });
    });

    test("after all of it, the same process answers a normal tools/call; stdout held nothing but JSON-RPC", async () => {
      for (const p of [s, old]) {
        const a = await p.request({ jsonrpc: "2.0", id: "c-final", method: "tools/call", params: { name: "search_code", arguments: { query: "isQuoteExpired" } } });
        assert.equal(toolAnswer(a)?.ok, true);
        assert.deepEqual(p.strays, []);
      }
    });
  });

  describe("over Streamable HTTP (the built server)", () => {
    let proc: ChildProcess;
    let url: string;
    let s: RawHttpSession;
    let old: RawHttpSession;
    before(async () => {
      ({ proc, url } = await serveCli(["--repo", repo.root, "--store", store], { REPOCTX_HTTP_TOKENS: "" }));
      s = await RawHttpSession.open(url, "2025-06-18");
      old = await RawHttpSession.open(url, "2025-03-26");
    });
    after(async () => {
      await stop(proc);
    });

    for (const c of CASES) {
      test(c.name, async () => {
        const { status, body } = await s.post(c.body);
        const got = httpAnswers(body);
        assertWellFormed(got);
        assert.deepEqual({ status, answers: keys(got) }, { status: c.http.status, answers: expectedKeys(c.http.answers) });
      });
    }

    for (const c of BATCH_CASES) {
      test(`2025-03-26: ${c.name}`, async () => {
        const { status, body } = await old.post(c.body);
        const got = httpAnswers(body);
        assertWellFormed(got);
        assert.deepEqual({ status, answers: keys(got) }, { status: c.http.status, answers: expectedKeys(c.http.answers) });
        if (got.length > 1) assert.ok(Array.isArray(body), "a batch's answers come as an array");
      });
    }

    test("initialize again in a live session: -32600 with its id", async () => {
      const { status, body } = await s.post(req("h-reinit", "initialize", { protocolVersion: "2025-06-18", ...INIT_PARAMS }));
      assert.equal(status, 400);
      assert.deepEqual(keys(httpAnswers(body)), ['"h-reinit":-32600']);
    });

    test("without a session: initialize with bad params gets -32602, anything else -32000, each with its id", async () => {
      const post = async (body: string): Promise<{ status: number; body: unknown }> => {
        const res = await fetch(url, { method: "POST", headers: MCP_HEADERS, body });
        return { status: res.status, body: JSON.parse(await res.text()) };
      };
      const badInit = await post(req("h-init", "initialize", { protocolVersion: 2025 }));
      assert.deepEqual({ status: badInit.status, answers: keys(httpAnswers(badInit.body)) }, { status: 400, answers: ['"h-init":-32602'] });
      const noSession = await post(j(ping("h-nosession")));
      assert.deepEqual({ status: noSession.status, answers: keys(httpAnswers(noSession.body)) }, { status: 400, answers: [`"h-nosession":${SERVER_ERROR}`] });
      const notJson = await post("{");
      assert.deepEqual({ status: notJson.status, answers: keys(httpAnswers(notJson.body)) }, { status: 400, answers: [`null:${PARSE}`] });
    });

    test("after all of it, both sessions answer a normal tools/call", async () => {
      for (const session of [s, old]) {
        const { status, body } = await session.post(call("h-final", { name: "search_code", arguments: { query: "isQuoteExpired" } }));
        assert.equal(status, 200);
        assert.equal(toolAnswer(body as Answer)?.ok, true);
      }
    });
  });

  describe("the checks alone", () => {
    test("a request whose id is in progress is refused; a batch reusing one, whole", () => {
      const busy = (id: unknown): boolean => id === 5;
      const single = judgeForSession(ping(5), "2025-06-18", busy);
      assert.equal(single.kind, "answer");
      assert.equal(judgeForSession(ping(6), "2025-06-18", busy).kind, "go");
      const batch = checkBatch([ping(6), ping(5)], true, busy);
      assert.equal(batch.kind, "refuse");
      assert.deepEqual(batch.kind === "refuse" ? batch.replies.map((r) => r.id) : [], [6, 5]);
    });

    test("batches pass only where the negotiated version has them", () => {
      assert.equal(checkBatch([ping(1)], true, () => false).kind, "pass");
      assert.equal(judgeForSession([ping(1)], "2025-03-26", () => false).kind, "go");
      assert.equal(judgeForSession([ping(1)], "2025-06-18", () => false).kind, "answer");
      assert.equal(judgeForSession([ping(1)], "2025-11-25", () => false).kind, "answer");
      assert.equal(judgeOpening([ping(1)]).kind, "answer");
    });

    test("depth is counted without recursion, the message itself as level 1", () => {
      assert.equal(deeperThan({ a: [1] }, 2), false);
      assert.equal(deeperThan({ a: [[1]] }, 2), true);
      assert.equal(deeperThan(JSON.parse(`${"[".repeat(200_000)}${"]".repeat(200_000)}`), 64), true, "no stack overflow");
      assert.equal(deeperThan("flat", 0), false);
    });

    test("a notification is never answered, even malformed", () => {
      assert.equal(classify({ jsonrpc: "2.0", method: "notifications/x", params: 17 }).kind, "drop");
      assert.equal(classify({ jsonrpc: "2.0", method: "notifications/x" }).kind, "pass");
    });
  });
});
