/**
 * Raw JSON-RPC against the built server, below any SDK client: lines written to `serve`'s stdin and every stdout
 * line kept, or bodies POSTed to `serve --http`. For conformance tests and the fuzz suite, which send what an SDK
 * client never would.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { EventEmitter } from "node:events";
import { ERROR_CATEGORIES } from "../../src/core/errors.js";
import { CLI } from "./cli.js";

export type Id = string | number;

/** One answer as it came back (a batch's answers are split into their members). */
export interface Answer {
  jsonrpc?: unknown;
  id?: unknown;
  result?: { isError?: boolean; content?: { type?: string; text?: string }[]; structuredContent?: ToolAnswer } & Record<string, unknown>;
  error?: { code?: unknown; message?: unknown; data?: unknown };
}

/** A tool result's JSON, compact or full: what the text content carries (a text answer: its text, and ok). */
export interface ToolAnswer {
  ok?: boolean;
  text?: string;
  data?: { error?: { category?: string; message?: string } };
}

/**
 * The JSON a tool call's text content carries, or undefined when the answer is not a tool result with one. A
 * compact answer rendered as text (search_code's) reads as ok: an error is always JSON.
 */
export function toolAnswer(a: Answer): ToolAnswer | undefined {
  const text = a.result?.content?.[0]?.text;
  if (typeof text !== "string") return undefined;
  try {
    return JSON.parse(text) as ToolAnswer;
  } catch {
    return a.result?.isError !== true && text.length > 0 ? { ok: true, text } : undefined;
  }
}

export const INIT_PARAMS = { capabilities: {}, clientInfo: { name: "raw-jsonrpc", version: "0" } };

/** The key answers are counted under: `1` and `"1"` are different ids; null is the answers that name none. */
export function idKey(id: unknown): string {
  return id === null || id === undefined ? "null" : JSON.stringify(id);
}

/**
 * What is wrong with one answer as JSON-RPC from this server, or null: a 2.0 envelope with an id (or null), exactly
 * one of result and error, an error code from the JSON-RPC set this server uses (never -32603), and a failed tool
 * call carrying one of the error categories, never `internal_error`.
 */
export function answerProblem(a: Answer): string | null {
  if (typeof a !== "object" || a === null || Array.isArray(a)) return "not an object";
  if (a.jsonrpc !== "2.0") return "jsonrpc is not 2.0";
  if (!("id" in a)) return "no id member";
  if (("result" in a) === ("error" in a)) return "not exactly one of result and error";
  if (a.error) {
    if (![-32700, -32600, -32601, -32602, -32000].includes(a.error.code as number)) return `error code ${String(a.error.code)}`;
    if (typeof a.error.message !== "string" || a.error.message.length === 0) return "error without a message";
    return null;
  }
  const env = toolAnswer(a);
  if (a.result?.isError === true) {
    const category = env?.data?.error?.category;
    if (!ERROR_CATEGORIES.includes(category as never)) return `tool error without a category (${String(category)})`;
    if (category === "internal_error") return `internal_error: ${env?.data?.error?.message}`;
  }
  return null;
}

/** A spawned `repoctx serve` over stdio: raw lines in, every stdout line kept and its answers indexed by id. */
export class RawStdio {
  readonly lines: string[] = [];
  /** Stdout lines that are not JSON-RPC answers (must stay empty). */
  readonly strays: string[] = [];
  readonly answers = new Map<string, Answer[]>();
  /** Every answer in the order it came. */
  readonly all: Answer[] = [];
  /** Lines that were a batch's answers (arrays). */
  readonly batchLines: Answer[][] = [];
  stderr = "";
  private readonly events = new EventEmitter();
  private pending = "";

  private constructor(readonly proc: ChildProcessWithoutNullStreams) {
    this.events.setMaxListeners(0);
    proc.stdout.setEncoding("utf8");
    proc.stdout.on("data", (d: string) => this.read(d));
    proc.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
  }

  /** Spawns the server and initializes a session at `protocolVersion`. */
  static async start(args: string[], protocolVersion: string): Promise<RawStdio> {
    const s = new RawStdio(spawn(process.execPath, [CLI, "serve", "--quiet", "--tools", "all", ...args], { stdio: ["pipe", "pipe", "pipe"] }));
    const init = await s.request({ jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion, ...INIT_PARAMS } }, 60_000);
    if (!init.result) throw new Error(`initialize failed: ${JSON.stringify(init)} ${s.stderr}`);
    s.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return s;
  }

  private read(chunk: string): void {
    this.pending += chunk;
    let nl: number;
    while ((nl = this.pending.indexOf("\n")) >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      this.lines.push(line);
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        this.strays.push(line);
        continue;
      }
      const members = Array.isArray(parsed) ? (parsed as Answer[]) : [parsed as Answer];
      if (Array.isArray(parsed)) this.batchLines.push(members);
      for (const a of members) {
        if (typeof a !== "object" || a === null || !("id" in a)) {
          this.strays.push(line);
          continue;
        }
        const key = idKey(a.id);
        this.all.push(a);
        this.answers.set(key, [...(this.answers.get(key) ?? []), a]);
      }
    }
    this.events.emit("line");
  }

  /** Writes one line: an object as JSON, a string as it is. */
  send(message: unknown): void {
    this.proc.stdin.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  }

  count(id: Id | null): number {
    return this.answers.get(idKey(id))?.length ?? 0;
  }

  /** Resolves once `done()` holds, rejects after `timeoutMs` (or when the server exits) saying what was awaited. */
  until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!done()) return;
        finish();
        resolve();
      };
      const exited = (): void => {
        finish();
        reject(new Error(`server exited while waiting for ${what}: ${this.stderr}`));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`no answer within ${timeoutMs} ms: ${what}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        this.events.off("line", check);
        this.proc.off("exit", exited);
      };
      this.events.on("line", check);
      this.proc.once("exit", exited);
    });
  }

  /** Sends a message with an id and resolves with the next answer carrying that id. */
  async request(message: { id: Id } & Record<string, unknown>, timeoutMs = 30_000): Promise<Answer> {
    const before = this.count(message.id);
    this.send(message);
    await this.until(() => this.count(message.id) > before, timeoutMs, `id ${idKey(message.id)}`);
    return this.answers.get(idKey(message.id))![before]!;
  }

  async close(): Promise<number | null> {
    if (this.proc.exitCode !== null) return this.proc.exitCode;
    const exited = new Promise<number | null>((resolve) => this.proc.once("exit", (code) => resolve(code)));
    this.proc.stdin.end();
    return exited;
  }
}

export const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** One Streamable HTTP session opened with a raw initialize, and POSTs of any body into it. */
export class RawHttpSession {
  private constructor(
    readonly url: string,
    readonly sessionId: string,
    readonly protocolVersion: string,
  ) {}

  static async open(url: string, protocolVersion: string): Promise<RawHttpSession> {
    const init = { jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion, ...INIT_PARAMS } };
    const res = await fetch(url, { method: "POST", headers: MCP_HEADERS, body: JSON.stringify(init) });
    const sessionId = res.headers.get("mcp-session-id");
    if (res.status !== 200 || !sessionId) throw new Error(`initialize over HTTP failed: ${res.status} ${await res.text()}`);
    await res.text();
    const s = new RawHttpSession(url, sessionId, protocolVersion);
    await s.post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    return s;
  }

  /** POSTs a body as it is; `body` is null for an empty answer (202), else the parsed JSON. */
  async post(text: string, timeoutMs = 30_000): Promise<{ status: number; body: unknown }> {
    const headers = { ...MCP_HEADERS, "mcp-session-id": this.sessionId, "mcp-protocol-version": this.protocolVersion };
    const res = await fetch(this.url, { method: "POST", headers, body: text, signal: AbortSignal.timeout(timeoutMs) });
    const raw = await res.text();
    return { status: res.status, body: raw.length === 0 ? null : (JSON.parse(raw) as unknown) };
  }
}
