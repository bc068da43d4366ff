/**
 * Seeded random JSON-RPC for the fuzz suite: well-formed and near-miss tool calls built from each tool's input schema
 * (as tools/list gives it), and every way a message can be malformed, each with the answers it must get. The same
 * seed gives the same messages.
 */
import { seededRandom } from "../../src/indexer/semantic/random.js";
import { MAX_DEPTH, SERVED_METHODS } from "../../src/mcp/jsonrpc-checks.js";
import type { Id } from "./raw-jsonrpc.js";

/** What an answer must be: a tool result (a categorized envelope when it failed), or a JSON-RPC error with one of the codes, or any well-formed answer. */
export type Accept = "tool" | "any" | readonly number[];

/** One answer a message must get, exactly once: to its id, or with `id: null`. */
export interface Expectation {
  id: Id | null;
  accept: Accept;
}

export interface FuzzCase {
  kind: string;
  /** What goes on the wire, sent back to back: each one line (stdio) or one body (HTTP), never a newline inside. */
  lines: string[];
  expect: Expectation[];
  /** Answers with `id: null` the case may get on top of `expect` (a refused batch that holds no request gets one). */
  optionalNulls: number;
}

export interface ToolInfo {
  name: string;
  inputSchema: JsonSchema;
}

export interface JsonSchema {
  type?: string;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
}

const INVALID_REQUEST = -32600;
const NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const PARSE = -32700;

const PATHS = [
  "services/pricing/src/main/java/com/acme/pricing/QuoteService.java",
  "web/src/quote.ts",
  "README.md",
  "AGENTS.md",
  "services/pricing/AGENTS.md",
  "docs/openapi.yaml",
  "go/ratelimit/limiter.go",
  "tools/pricing_report.py",
  "web/src/",
  "**/*.java",
];
const WORDS = ["isQuoteExpired", "QuoteService", "quote", "cache", "limiter", "TODO", "price", "Validate quote expiry", "format", "é中文🙂"];
const SYMBOLS = ["QuoteService#isQuoteExpired", "QuoteService", "isQuoteExpired", "formatQuote", "Limiter.Allow", "QuoteCache#get"];
const PATTERNED = ["TASK-1", "#12", "a".repeat(40).replace(/a/g, (_, i: number) => "0123456789abcdef"[i % 16]!), `sha256:${"ab".repeat(32)}`];
const NASTY_STRINGS = ["", " ", "../../etc/passwd", "/etc/passwd", ".git/config", "a\u0000b", "\u202eevil", "C:\\Windows\\system.ini", "%2e%2e/%2e%2e", "*".repeat(300), "(?:a+)+$", "\\", "{{x}}"];
const NOT_OBJECTS: unknown[] = [17, -1, 0.5, "x", "", true, false, null, [], [1, 2], [{}]];
const UNKNOWN_METHODS = ["tools/execute", "tools/Call", "TOOLS/LIST", "", "rpc.discover", "$/cancelRequest", "resources/subscribe", "logging/setLevel", "tasks/get", "sampling/createMessage", "x".repeat(300)];
const PROMPTS = ["build_review_context", "build_migration_context", "nope"];
const NOTIFICATION_METHODS = ["notifications/initialized", "notifications/roots/list_changed", "notifications/progress", "notifications/unknown", "notifications/cancelled"];

export class MessageFuzzer {
  private readonly r: () => number;
  private counter = 0;

  constructor(
    seed: number,
    private readonly tools: readonly ToolInfo[],
  ) {
    this.r = seededRandom(seed);
  }

  private int(lo: number, hi: number): number {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.r() * xs.length)]!;
  }

  private chance(p: number): boolean {
    return this.r() < p;
  }

  /** A fresh id: numbers and strings in turn, never one used before by this fuzzer. */
  private id(): Id {
    this.counter += 1;
    return this.counter % 2 === 0 ? this.counter : `f-${this.counter}`;
  }

  private string(key: string, s: JsonSchema): string {
    if (/repoId/i.test(key)) return "acme/pricing-service";
    const pattern = s.pattern ? new RegExp(s.pattern, "u") : null;
    const pool = pattern ? PATTERNED : /path|glob/i.test(key) ? PATHS : /symbol|from|to$/i.test(key) ? SYMBOLS : WORDS;
    let v = pattern ? (PATTERNED.find((c) => pattern.test(c)) ?? this.pick(pool)) : this.pick(pool);
    if (s.maxLength !== undefined && v.length > s.maxLength) v = v.slice(0, s.maxLength);
    if (s.minLength !== undefined && v.length < s.minLength) v = v.padEnd(s.minLength, "a");
    return v;
  }

  /** A value that fits the schema (mostly: patterns are met from a pool). */
  value(s: JsonSchema, key = "", depth = 0): unknown {
    if (s.const !== undefined) return s.const;
    if (s.enum) return this.pick(s.enum);
    if (s.anyOf) return this.value(this.pick(s.anyOf), key, depth);
    switch (s.type) {
      case "string":
        return this.string(key, s);
      case "integer":
      case "number":
        return this.int(s.minimum ?? 0, Math.min(s.maximum ?? 1000, (s.minimum ?? 0) + 1000));
      case "boolean":
        return this.chance(0.5);
      case "null":
        return null;
      case "array": {
        const n = this.int(s.minItems ?? 0, Math.min(s.maxItems ?? 4, (s.minItems ?? 0) + 3));
        return Array.from({ length: n }, () => this.value(s.items ?? {}, key, depth + 1));
      }
      case "object":
        return this.object(s, depth);
      default:
        return this.pick(WORDS);
    }
  }

  private object(s: JsonSchema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const required = new Set(s.required ?? []);
    for (const [k, p] of Object.entries(s.properties ?? {})) {
      if (required.has(k) || (depth < 3 && this.chance(0.4))) out[k] = this.value(p, k, depth + 1);
    }
    return out;
  }

  /** A value of the wrong kind, or just outside the schema's bounds. */
  private miss(s: JsonSchema): unknown {
    const options: unknown[] = [this.pick(NOT_OBJECTS), { nested: { deeper: [1] } }];
    if (s.type === "string") options.push(this.pick(NASTY_STRINGS), "x".repeat((s.maxLength ?? 1000) + 1), 42);
    if (s.type === "integer" || s.type === "number") options.push((s.minimum ?? 0) - 1, (s.maximum ?? 1e9) + 1, 1.5, 1e308, "7");
    if (s.type === "array") options.push(Array.from({ length: (s.maxItems ?? 100) + 1 }, () => this.value(s.items ?? {})), [null], "not-a-list");
    if (s.enum) options.push(`${String(this.pick(s.enum)).toUpperCase()}_`, "");
    return this.pick(options);
  }

  /** Arguments one step away from valid: a required key gone, an unknown key, or one value of the wrong kind. */
  private nearMiss(t: ToolInfo): Record<string, unknown> {
    const args = this.object(t.inputSchema, 0);
    const props = Object.entries(t.inputSchema.properties ?? {});
    const which = this.int(0, 2);
    if (which === 0 && (t.inputSchema.required ?? []).length > 0) delete args[this.pick(t.inputSchema.required!)];
    else if (which === 1 || props.length === 0) args[this.pick(["extra", "constructor", "repoId", "PATH", ""])] = this.pick(NOT_OBJECTS);
    else {
      const [k, p] = this.pick(props);
      args[k] = this.miss(p);
    }
    return args;
  }

  private request(method: string, params?: unknown, id: Id | null = this.id()): Record<string, unknown> {
    return { jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) };
  }

  private single(kind: string, message: unknown, accept: Accept, id: Id | null): FuzzCase {
    return { kind, lines: [JSON.stringify(message)], expect: [{ id, accept }], optionalNulls: 0 };
  }

  private toolCall(args: (t: ToolInfo) => unknown, kind: string): FuzzCase {
    const t = this.pick(this.tools);
    const m = this.request("tools/call", { name: t.name, arguments: args(t) });
    return this.single(kind, m, "tool", m.id as Id);
  }

  private unknownTool(): FuzzCase {
    const real = this.pick(this.tools).name;
    const name = this.pick([real.toUpperCase(), `${real}_v2`, real.slice(1), "rm_rf", "", "../search_code", "x".repeat(500)]);
    const m = this.request("tools/call", { name, arguments: {} });
    return this.single("unknown tool", m, "tool", m.id as Id);
  }

  /** A served method with params from nothing to near-valid. */
  private servedMethod(): FuzzCase {
    const method = this.pick(SERVED_METHODS);
    const params = this.pick([
      {},
      { name: this.pick(WORDS) },
      { name: this.pick(PROMPTS), arguments: this.pick([{}, { paths: this.pick(PATHS) }, { goal: "x", from: "a", to: "b" }, { paths: "" }]) },
      { uri: this.pick(["repo://map", "repo://docs/README.md", "repo://docs/..%2F..%2Fetc%2Fpasswd", "repo://docs/", "repo://nope", "file:///etc/passwd", "", "repo://map?repoId=x"]) },
      { ref: { type: "ref/resource", uri: "repo://docs/{docId}" }, argument: { name: "docId", value: "R" } },
      { cursor: this.pick(["", "abc", 5]) },
      { ref: { type: "ref/prompt", name: "build_review_context" }, argument: { name: "paths", value: "" } },
      // Initialize again, at the version the session has (another would change whether batches are allowed).
      { protocolVersion: this.pick(["2025-03-26", 5]), capabilities: {}, clientInfo: { name: "f", version: "0" } },
      { arguments: { a: 1 } },
    ]);
    const m = this.request(method, params);
    return this.single("served method", m, "any", m.id as Id);
  }

  /** A sound request with one part of its envelope broken; the answer is -32600 (or -32602 for `_meta`). */
  private envelopeMiss(): FuzzCase {
    const m = this.request(this.pick(["ping", "tools/list", "tools/call"]), { name: "inspect_index", arguments: {} });
    const id = m.id as Id;
    switch (this.int(0, 6)) {
      case 0:
        m.jsonrpc = this.pick(["1.0", "2", 2, null, ""]);
        return this.single("bad jsonrpc", m, [INVALID_REQUEST], id);
      case 1:
        delete m.jsonrpc;
        return this.single("no jsonrpc", m, [INVALID_REQUEST], id);
      case 2:
        m.method = this.pick([5, null, {}, ["ping"], true]);
        return this.single("bad method", m, [INVALID_REQUEST], id);
      case 3:
        m.params = this.pick(NOT_OBJECTS);
        return this.single("bad params", m, [INVALID_REQUEST], id);
      case 4:
        m[this.pick(["extra", "result", "error", "Method"])] = 1;
        return this.single("extra member", m, [INVALID_REQUEST], id);
      case 5:
        m.id = this.pick([null, 1.5, {}, [], true, -0.25]);
        return this.single("bad id", m, [INVALID_REQUEST], null);
      default:
        m.params = { _meta: this.pick([5, "x", [], null]) };
        return this.single("bad _meta", m, [INVALID_PARAMS], id);
    }
  }

  private badJson(): FuzzCase {
    const whole = JSON.stringify(this.request("tools/call", { name: "search_code", arguments: { query: "quote" } }));
    const text = this.pick([
      whole.slice(0, this.int(1, whole.length - 1)),
      "{",
      "nul",
      "[1,",
      '{"a":}',
      "{'jsonrpc':'2.0'}",
      "\u0000\u0001",
      '{"jsonrpc":"2.0","id":1,"method":"ping"}}',
      "undefined",
      "NaN",
      "\ufeff{}",
    ]);
    return { kind: "not JSON", lines: [text], expect: [{ id: null, accept: [PARSE] }], optionalNulls: 0 };
  }

  private notObject(): FuzzCase {
    return { kind: "not an object", lines: [JSON.stringify(this.pick([17, "ping", true, null, 0, "{}"]))], expect: [{ id: null, accept: [INVALID_REQUEST] }], optionalNulls: 0 };
  }

  /** Never answered: notifications, sound or malformed, and responses to requests never sent. */
  private unanswered(): FuzzCase {
    const method = this.pick(NOTIFICATION_METHODS);
    // A cancellation names an id no request of the fuzzer uses, so it cancels nothing that must be answered.
    const params = method === "notifications/cancelled" ? { requestId: `never-${this.int(0, 99)}` } : this.pick([undefined, {}, { progressToken: 1, progress: 2 }]);
    const message = this.pick<unknown>([
      { jsonrpc: "2.0", method, ...(params === undefined ? {} : { params }) },
      { jsonrpc: "2.0", method, params: this.pick([17, "x", null, []]) },
      { jsonrpc: "2.0", method: this.pick([5, null]) },
      { jsonrpc: "2.0", id: `never-${this.int(0, 99)}`, result: {} },
      { jsonrpc: "2.0", id: `never-${this.int(0, 99)}`, error: { code: -1, message: "no" } },
      { jsonrpc: "2.0", id: 5, result: 5 },
    ]);
    return { kind: "unanswered", lines: [JSON.stringify(message)], expect: [], optionalNulls: 0 };
  }

  /** A value nested `depth` levels deep, arrays and objects mixed. */
  private nested(depth: number): unknown {
    let v: unknown = "bottom";
    for (let i = depth; i > 0; i--) v = this.chance(0.5) ? [v] : { k: v };
    return v;
  }

  /**
   * Large or deep values. Within the server's limits (under 1 MiB, the HTTP default; nesting within MAX_DEPTH) a tool
   * answers; nested deeper, the call is refused -32602 before any handler walks it.
   */
  private huge(): FuzzCase {
    const big = "q".repeat(this.int(10_000, 500_000));
    const t = this.pick(this.tools);
    if (this.chance(0.3)) {
      const m = this.request("tools/call", { name: t.name, arguments: { query: this.nested(this.int(MAX_DEPTH, 2000)) } });
      return this.single("too deep", m, [INVALID_PARAMS], m.id as Id);
    }
    const args = this.pick<Record<string, unknown>>([
      { query: big },
      { query: "quote", paths: Array.from({ length: 5000 }, (_, i) => `p/${i}`) },
      { query: this.nested(this.int(1, MAX_DEPTH - 5)) },
      { query: "quote", deep: this.nested(this.int(1, MAX_DEPTH - 5)) },
      { paths: [big] },
    ]);
    const m = this.request("tools/call", { name: t.name, arguments: args });
    return this.single("huge", m, "tool", m.id as Id);
  }

  private unknownMethod(): FuzzCase {
    const m = this.request(this.pick(UNKNOWN_METHODS), this.pick([undefined, {}, { a: 1 }]));
    return this.single("unknown method", m, [NOT_FOUND], m.id as Id);
  }

  /** A batch of other cases' messages; whether it runs or is refused, each member's expected answers hold loosely. */
  private batch(): FuzzCase {
    const members = Array.from({ length: this.int(0, 5) }, () => this.memberCase());
    const text = `[${members.flatMap((c) => c.lines).join(",")}]`;
    if (members.length === 0) return { kind: "empty batch", lines: [text], expect: [{ id: null, accept: [INVALID_REQUEST] }], optionalNulls: 0 };
    const expect = members.flatMap((c) => c.expect.map((e) => ({ id: e.id, accept: "any" as const })));
    return { kind: "batch", lines: [text], expect, optionalNulls: expect.length === 0 ? 1 : 0 };
  }

  private duplicate(): FuzzCase {
    const c = this.toolCall((t) => this.object(t.inputSchema, 0), "duplicate id");
    return { kind: "duplicate id", lines: [...c.lines, ...c.lines], expect: [...c.expect, ...c.expect].map((e) => ({ id: e.id, accept: "any" as const })), optionalNulls: 0 };
  }

  /** A batch member: mostly sound (so that most batches run), sometimes invalid (so that some are refused). */
  private memberCase(): FuzzCase {
    if (this.chance(0.1)) return this.pick([() => this.envelopeMiss(), () => this.notObject()])();
    return this.pick([() => this.toolCall((t) => this.object(t.inputSchema, 0), "tool call"), () => this.servedMethod(), () => this.unanswered(), () => this.unknownMethod()])();
  }

  /** The next case, drawn by weight. */
  next(): FuzzCase {
    const x = this.r() * 100;
    if (x < 20) return this.toolCall((t) => this.object(t.inputSchema, 0), "tool call");
    if (x < 40) return this.toolCall((t) => this.nearMiss(t), "near-miss arguments");
    if (x < 44) return this.unknownTool();
    if (x < 53) return this.servedMethod();
    if (x < 58) return this.unknownMethod();
    if (x < 70) return this.envelopeMiss();
    if (x < 73) return this.notObject();
    if (x < 77) return this.badJson();
    if (x < 83) return this.unanswered();
    if (x < 86) return this.huge();
    if (x < 97) return this.batch();
    return this.duplicate();
  }
}
