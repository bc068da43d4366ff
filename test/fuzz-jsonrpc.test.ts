/**
 * Seeded fuzzing of the built server with random and malformed JSON-RPC: over stdio, then a shorter pass over
 * Streamable HTTP. Every message with an id must be answered exactly once, within a generous deadline (a hang
 * detector, not a speed test); every answer is JSON-RPC with a known code or a tool result whose failure carries an
 * error category, never `internal_error`; stdout carries nothing else; the same process answers a normal call at
 * the end. A failure names the seed: REPOCTX_FUZZ_SEED=<seed> replays it, REPOCTX_FUZZ_CASES sets the count.
 */
import assert from "node:assert/strict";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { runCli } from "./helpers/cli.js";
import { buildGoldenRepo, type BuiltRepo } from "./helpers/fixture.js";
import { MessageFuzzer, type Accept, type FuzzCase, type ToolInfo } from "./helpers/fuzz-messages.js";
import { serveCli, stop } from "./helpers/http-cli.js";
import { RawHttpSession, RawStdio, answerProblem, idKey, toolAnswer, type Answer } from "./helpers/raw-jsonrpc.js";

const SEED = Number(process.env.REPOCTX_FUZZ_SEED ?? 1_616_2026);
const STDIO_CASES = Number(process.env.REPOCTX_FUZZ_CASES ?? 3000);
const HTTP_CASES = Math.ceil(STDIO_CASES / 8);
/** How long one message may wait for its answer: far beyond any normal answer, short of a hung client's patience. */
const ANSWER_DEADLINE_MS = 30_000;
/** Cases in flight at once over stdio, and over HTTP. */
const STDIO_WINDOW = 16;
const HTTP_WINDOW = 4;
const SHOWN_CHARS = 300;

function shown(c: FuzzCase): string {
  const text = c.lines.join(" ⏎ ");
  return `${c.kind}: ${text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text}`;
}

/** What is wrong with an answer for what its message expects, or null. */
function acceptProblem(a: Answer, accept: Accept): string | null {
  if (accept === "any") return null;
  if (accept === "tool") return a.error ? `a tool call answered with JSON-RPC error ${String(a.error.code)}: ${String(a.error.message)}` : toolAnswer(a) ? null : "a tool result without JSON text content";
  return a.error && accept.includes(a.error.code as number) ? null : `expected error ${accept.join("|")}, got ${JSON.stringify(a).slice(0, SHOWN_CHARS)}`;
}

/** Checks the answers one case got against what it expects; returns the problems. */
function caseProblems(c: FuzzCase, answers: readonly Answer[], extraNulls: number): string[] {
  const problems: string[] = [];
  for (const a of answers) {
    const p = answerProblem(a);
    if (p) problems.push(`${p} in ${JSON.stringify(a).slice(0, SHOWN_CHARS)}`);
  }
  const byId = new Map<string, Answer[]>();
  for (const a of answers) byId.set(idKey(a.id), [...(byId.get(idKey(a.id)) ?? []), a]);
  const wanted = new Map<string, Accept[]>();
  for (const e of c.expect) wanted.set(idKey(e.id), [...(wanted.get(idKey(e.id)) ?? []), e.accept]);
  for (const [key, accepts] of wanted) {
    const got = byId.get(key) ?? [];
    const extra = key === "null" ? extraNulls : 0;
    if (got.length < accepts.length || got.length > accepts.length + extra) problems.push(`id ${key}: ${got.length} answers for ${accepts.length} messages`);
    got.forEach((a, i) => {
      const p = acceptProblem(a, accepts[Math.min(i, accepts.length - 1)]!);
      if (p) problems.push(`id ${key}: ${p}`);
    });
  }
  for (const [key, got] of byId) if (!wanted.has(key) && !(key === "null" && got.length <= extraNulls)) problems.push(`id ${key}: ${got.length} unexpected answers`);
  return problems.map((p) => `${p} — ${shown(c)}`);
}

describe(`JSON-RPC fuzz (seed ${SEED}; REPOCTX_FUZZ_SEED replays another)`, () => {
  let repo: BuiltRepo;
  let storeDir: string;
  let store: string;
  before(() => {
    repo = buildGoldenRepo();
    storeDir = mkdtempSync(join(tmpdir(), "repoctx-fuzz-"));
    store = join(storeDir, "index.db");
    assert.equal(runCli(["index", repo.root, "--store", store, "--quiet"]).status, 0);
  });
  after(() => {
    rmSync(storeDir, { recursive: true, force: true });
    repo.cleanup();
  });

  test(`stdio: ${STDIO_CASES} cases, each message with an id answered exactly once`, async (t) => {
    // 2025-03-26 allows batches, so batches run here and their answers are gathered; HTTP below refuses them.
    const s = await RawStdio.start(["--repo", repo.root, "--store", store], "2025-03-26");
    try {
      const list = await s.request({ jsonrpc: "2.0", id: "tools", method: "tools/list" });
      const tools = (list.result as unknown as { tools: ToolInfo[] }).tools;
      assert.ok(tools.length > 0);
      const fuzzer = new MessageFuzzer(SEED, tools);
      const cases = Array.from({ length: STDIO_CASES }, () => fuzzer.next());
      await driveStdio(s, cases);
      const final = await s.request({ jsonrpc: "2.0", id: "final", method: "tools/call", params: { name: "search_code", arguments: { query: "isQuoteExpired" } } });
      assert.equal(toolAnswer(final)?.ok, true, "the same process answers a normal call at the end");
      const problems = stdioProblems(s, cases);
      assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems (seed ${SEED})`);
      assert.deepEqual(s.strays, [], "nothing but JSON-RPC answers on stdout");
      t.diagnostic(`${messageCount(cases)} messages in ${cases.length} cases; answers by outcome: ${JSON.stringify(outcomes(s.all))}`);
    } finally {
      assert.equal(await s.close(), 0, `the server exits cleanly: ${s.stderr.slice(-2000)}`);
    }
  });

  test(`Streamable HTTP: ${HTTP_CASES} cases over two sessions (2025-03-26 and 2025-06-18)`, async () => {
    const policyDir = mkdtempSync(join(tmpdir(), "repoctx-fuzz-policy-"));
    const policy = join(policyDir, "policy.yml");
    writeFileSync(policy, "http:\n  rateLimitPerMinute: 1000000\n");
    let proc: ChildProcess | null = null;
    try {
      const served = await serveCli(["--repo", repo.root, "--store", store, "--policy", policy], { REPOCTX_HTTP_TOKENS: "" });
      proc = served.proc;
      const sessions = [await RawHttpSession.open(served.url, "2025-03-26"), await RawHttpSession.open(served.url, "2025-06-18")];
      const list = await sessions[0]!.post(JSON.stringify({ jsonrpc: "2.0", id: "tools", method: "tools/list" }));
      const tools = ((list.body as Answer).result as unknown as { tools: ToolInfo[] }).tools;
      const fuzzer = new MessageFuzzer(SEED + 1, tools);
      const cases = Array.from({ length: HTTP_CASES }, () => fuzzer.next());
      const problems: string[] = [];
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < cases.length) {
          const i = next++;
          problems.push(...(await httpCase(sessions[i % 2]!, cases[i]!)));
        }
      };
      await Promise.all(Array.from({ length: HTTP_WINDOW }, worker));
      assert.deepEqual(problems.slice(0, 20), [], `${problems.length} problems (seed ${SEED + 1})`);
      for (const session of sessions) {
        const { status, body } = await session.post(JSON.stringify({ jsonrpc: "2.0", id: "final", method: "tools/call", params: { name: "search_code", arguments: { query: "isQuoteExpired" } } }));
        assert.equal(status, 200);
        assert.equal(toolAnswer(body as Answer)?.ok, true, "the same process answers a normal call at the end");
      }
    } finally {
      if (proc) await stop(proc);
      rmSync(policyDir, { recursive: true, force: true });
    }
  });
});

/** Messages sent: a batch counts as its members. */
function messageCount(cases: readonly FuzzCase[]): number {
  let n = 0;
  for (const line of cases.flatMap((c) => c.lines)) {
    let v: unknown = null;
    try {
      v = line.startsWith("[") ? JSON.parse(line) : null;
    } catch {
      v = null;
    }
    n += Array.isArray(v) ? v.length : 1;
  }
  return n;
}

/** How many answers were results (ok, or failed by category) and errors by code: what the run exercised. */
function outcomes(answers: readonly Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) {
    const env = toolAnswer(a);
    const key = a.error ? `error ${String(a.error.code)}` : env ? (env.ok ? "tool ok" : `tool ${env.data?.error?.category}`) : "other result";
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** Which cases still wait for an answer to one of their ids. */
function waiting(s: RawStdio, c: FuzzCase): boolean {
  const need = new Map<string, number>();
  for (const e of c.expect) if (e.id !== null) need.set(idKey(e.id), (need.get(idKey(e.id)) ?? 0) + 1);
  for (const [key, n] of need) if ((s.answers.get(key)?.length ?? 0) < n) return true;
  return false;
}

/** Sends the cases with a window of them in flight; fails when one waits past its deadline. */
async function driveStdio(s: RawStdio, cases: readonly FuzzCase[]): Promise<void> {
  const open = new Map<number, number>();
  let next = 0;
  while (next < cases.length || open.size > 0) {
    while (open.size < STDIO_WINDOW && next < cases.length) {
      s.send(cases[next]!.lines.join("\n"));
      open.set(next, Date.now());
      next += 1;
    }
    const oldest = Math.min(...open.values());
    const settled = (): boolean => [...open.keys()].some((i) => !waiting(s, cases[i]!));
    const first = [...open.entries()].find(([, t]) => t === oldest)![0];
    await s.until(settled, Math.max(1, oldest + ANSWER_DEADLINE_MS - Date.now()), `an answer for ${shown(cases[first]!)} (seed ${SEED})`);
    for (const i of [...open.keys()]) if (!waiting(s, cases[i]!)) open.delete(i);
  }
}

/**
 * Every case's answers by id, exactly as many as it sent messages with that id. Answers with `id: null` cannot be
 * told apart by id, so they are counted over the whole run: at least the sum expected, at most that plus the
 * optional ones (they are written as each line is read, all before the final call's answer).
 */
function stdioProblems(s: RawStdio, cases: readonly FuzzCase[]): string[] {
  const problems: string[] = [];
  let nulls = 0;
  let optional = 0;
  for (const c of cases) {
    const ids = new Set(c.expect.filter((e) => e.id !== null).map((e) => idKey(e.id)));
    const answers = [...ids].flatMap((k) => s.answers.get(k) ?? []);
    problems.push(...caseProblems({ ...c, expect: c.expect.filter((e) => e.id !== null) }, answers, 0));
    nulls += c.expect.filter((e) => e.id === null).length;
    optional += c.optionalNulls;
  }
  const gotNulls = s.answers.get("null") ?? [];
  if (gotNulls.length < nulls || gotNulls.length > nulls + optional) problems.push(`${gotNulls.length} answers with id null, expected ${nulls} to ${nulls + optional}`);
  for (const a of gotNulls) {
    const p = answerProblem(a) ?? (a.error ? null : "a result with id null");
    if (p) problems.push(`${p} in ${JSON.stringify(a).slice(0, SHOWN_CHARS)}`);
  }
  const known = new Set(["null", idKey("init"), idKey("tools"), idKey("final"), ...cases.flatMap((c) => c.expect.map((e) => idKey(e.id)))]);
  for (const key of s.answers.keys()) if (!known.has(key)) problems.push(`answers for id ${key}, which no message used`);
  return problems;
}

/**
 * One case over HTTP: its bodies POSTed at once, their answers together checked against the case. A body the server
 * refuses to take (a malformed notification) may be answered with one `id: null` error, so a case that expects no
 * answer may get one.
 */
async function httpCase(session: RawHttpSession, c: FuzzCase): Promise<string[]> {
  let posts: { status: number; body: unknown }[];
  try {
    posts = await Promise.all(c.lines.map((line) => session.post(line, ANSWER_DEADLINE_MS)));
  } catch (err) {
    return [`no answer: ${err instanceof Error ? err.message : String(err)} — ${shown(c)}`];
  }
  const problems: string[] = [];
  for (const p of posts) if (![200, 202, 400].includes(p.status)) problems.push(`HTTP ${p.status} — ${shown(c)}`);
  const answers = posts.flatMap((p) => (p.body === null ? [] : Array.isArray(p.body) ? (p.body as Answer[]) : [p.body as Answer]));
  return [...problems, ...caseProblems(c, answers, c.optionalNulls + (c.expect.length === 0 ? 1 : 0))];
}
