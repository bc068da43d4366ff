/**
 * What a client sends, judged as JSON-RPC 2.0 before the MCP SDK sees it, so that every request gets exactly one
 * answer. The SDK drops a line it cannot parse as a message without a word (the client waits forever) and answers a
 * request whose params fail its schema with -32603; these checks answer instead:
 *
 * - a message that is not an object, a request without a usable id, a wrong `jsonrpc`, a method that is not a
 *   string, params that are not an object, an unknown member: -32600 (invalid request), with the request's id when
 *   it has one that can be echoed (a string or an integer), else `id: null`;
 * - params that do not fit the method's schema, or nest deeper than `MAX_DEPTH` levels: -32602 (invalid params);
 * - a method nobody serves goes on to the SDK, which answers -32601.
 *
 * A message with a `method` and no `id` is a notification and is never answered, not even when malformed (it is
 * dropped). A message with `result` or `error` and no `method` is the client's response to us and is never answered
 * either. Parse errors (-32700, `id: null`) are the transports' to send: only they see the raw text.
 */
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResponseSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { MAX_BATCH_SIZE } from "@modelcontextprotocol/sdk/server/requestBody.js";
import type { z } from "zod";

export type RequestId = string | number;

/** A JSON-RPC error response as it goes on the wire: `id` is null when the request's own could not be read. */
export interface ErrorReply {
  jsonrpc: "2.0";
  id: RequestId | null;
  error: { code: number; message: string };
}

/** One incoming value: a message for the SDK, a refusal to answer here, or something to drop unanswered. */
export type Verdict = { kind: "pass"; message: JSONRPCMessage } | { kind: "refuse"; reply: ErrorReply } | { kind: "drop"; why: string };

/** A batch passes whole, or every request in it is answered here and none runs. */
export type BatchVerdict = { kind: "pass"; messages: JSONRPCMessage[] } | { kind: "refuse"; replies: ErrorReply[] };

/**
 * Every request this server answers, with the SDK's schema for it: `initialize` and `ping` are the SDK's own, the
 * rest are registered in `createServer`. A method missing here is left to the SDK (-32601 when nobody serves it).
 */
const SERVED_REQUESTS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    CompleteRequestSchema,
  ].map((s) => [s.shape.method.value, s]),
);

/** The methods `checkParams` knows, for tests that hold it to what the server serves. */
export const SERVED_METHODS: readonly string[] = [...SERVED_REQUESTS.keys()];

/** JSON-RPC batches are part of MCP from 2025-03-26 until this version, which removed them. */
const BATCHES_REMOVED_IN = "2025-06-18";
const REQUEST_MEMBERS = new Set(["jsonrpc", "id", "method", "params"]);
/**
 * How deep a message may nest (the message itself is level 1). Tool arguments nest a few levels; a deeper value
 * would only exhaust the stack of whatever walks it recursively later (schema checks, hashing, serializing).
 */
export const MAX_DEPTH = 64;
/** Schema complaints quoted in one -32602 message. */
const MAX_ISSUES_SAID = 3;
const MAX_NAME_ECHOED = 40;

export function errorReply(id: RequestId | null, code: number, message: string): ErrorReply {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** A reply typed for `Transport.send`: the SDK's type has no `id: null`, its wire format (JSON) takes one as is. */
export function asMessage(reply: ErrorReply): JSONRPCMessage {
  return reply as unknown as JSONRPCMessage;
}

export function parseErrorReply(why: string): ErrorReply {
  return errorReply(null, ErrorCode.ParseError, `Parse error: ${why}`);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The id to answer with: a string or an integer is echoed, anything else (null, a fraction, an object) is not. */
function echoableId(id: unknown): RequestId | null {
  return typeof id === "string" || Number.isSafeInteger(id) ? (id as RequestId) : null;
}

/** Zod issues in one line: `params.name: Invalid input: expected string, received number; …`. */
function describe(error: z.ZodError): string {
  const said = error.issues.slice(0, MAX_ISSUES_SAID).map((i) => `${i.path.map(String).join(".") || "(message)"}: ${i.message}`);
  const more = error.issues.length - said.length;
  return said.join("; ") + (more > 0 ? `; and ${more} more` : "");
}

/** Whether a parsed JSON value nests deeper than `max` levels; walks it without recursion. */
export function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** What makes a message with an `id` member an invalid request, or null when its envelope is sound. */
function envelopeProblem(m: Record<string, unknown>, id: RequestId | null): string | null {
  if (id === null) return "id must be a string or an integer";
  if (m.jsonrpc !== "2.0") return 'jsonrpc must be "2.0"';
  if (typeof m.method !== "string") return "method must be a string";
  if (m.params !== undefined && !isRecord(m.params)) return "params must be an object when present";
  const extra = Object.keys(m).find((k) => !REQUEST_MEMBERS.has(k));
  return extra === undefined ? null : `unexpected member ${JSON.stringify(extra.slice(0, MAX_NAME_ECHOED))}`;
}

/** Judges one parsed JSON value as a JSON-RPC message (see the file's comment for the rules). */
export function classify(value: unknown): Verdict {
  if (!isRecord(value)) return { kind: "refuse", reply: errorReply(null, ErrorCode.InvalidRequest, "Invalid request: a JSON-RPC message is an object") };
  if (!Object.hasOwn(value, "method")) {
    if (Object.hasOwn(value, "result") || Object.hasOwn(value, "error")) {
      if (deeperThan(value, MAX_DEPTH)) return { kind: "drop", why: "response nested too deep" };
      return JSONRPCResponseSchema.safeParse(value).success ? { kind: "pass", message: value as JSONRPCMessage } : { kind: "drop", why: "malformed response" };
    }
    return { kind: "refuse", reply: errorReply(echoableId(value.id), ErrorCode.InvalidRequest, "Invalid request: a request names its method") };
  }
  if (!Object.hasOwn(value, "id")) {
    if (deeperThan(value, MAX_DEPTH)) return { kind: "drop", why: "notification nested too deep" };
    return JSONRPCNotificationSchema.safeParse(value).success ? { kind: "pass", message: value as JSONRPCMessage } : { kind: "drop", why: "malformed notification" };
  }
  const id = echoableId(value.id);
  const problem = envelopeProblem(value, id);
  if (problem !== null) return { kind: "refuse", reply: errorReply(id, ErrorCode.InvalidRequest, `Invalid request: ${problem}`) };
  if (deeperThan(value, MAX_DEPTH)) return { kind: "refuse", reply: errorReply(id, ErrorCode.InvalidParams, `Invalid params: values nest deeper than ${MAX_DEPTH} levels`) };
  const parsed = JSONRPCRequestSchema.safeParse(value);
  if (!parsed.success) return { kind: "refuse", reply: errorReply(id, ErrorCode.InvalidParams, `Invalid params: ${describe(parsed.error)}`) };
  return { kind: "pass", message: value as JSONRPCMessage };
}

export function isRequest(m: JSONRPCMessage): m is JSONRPCRequest {
  return "method" in m && "id" in m;
}

/**
 * The -32602 answer for a request to a served method whose params do not fit, or null when they do (or when the
 * method is not served: the SDK answers that). Task-augmented execution is refused too: the server declares no
 * tasks capability, and the SDK would answer such a request with -32603.
 */
export function checkParams(request: JSONRPCRequest): ErrorReply | null {
  const schema = SERVED_REQUESTS.get(request.method);
  if (!schema) return null;
  const parsed = schema.safeParse({ method: request.method, params: request.params });
  if (!parsed.success) return errorReply(request.id, ErrorCode.InvalidParams, `Invalid params for ${request.method}: ${describe(parsed.error)}`);
  if (isRecord(request.params) && request.params.task !== undefined) {
    return errorReply(request.id, ErrorCode.InvalidParams, `Invalid params for ${request.method}: params.task: task-augmented execution is not supported by this server`);
  }
  return null;
}

/** Whether a session that negotiated this protocol version may send batches (null: nothing negotiated yet). */
export function batchesAllowed(protocolVersion: string | null): boolean {
  return protocolVersion !== null && protocolVersion < BATCHES_REMOVED_IN;
}

/** Why a well-formed single request cannot run now (its id is taken by one in progress), or null. */
export function busyProblem(message: JSONRPCMessage, busy: (id: RequestId) => boolean): ErrorReply | null {
  if (!isRequest(message) || !busy(message.id)) return null;
  return errorReply(message.id, ErrorCode.InvalidRequest, `Invalid request: id ${JSON.stringify(message.id)} is already in use by a request in progress`);
}

/** Why a batch of classified members cannot run, or null. */
function batchProblem(verdicts: readonly Verdict[], allowed: boolean, busy: (id: RequestId) => boolean): string | null {
  if (!allowed) return `the protocol version this session negotiated does not allow batches (2025-03-26 does; ${BATCHES_REMOVED_IN} removed them)`;
  if (verdicts.length > MAX_BATCH_SIZE) return `a batch holds at most ${MAX_BATCH_SIZE} messages`;
  const bad = verdicts.findIndex((v) => v.kind !== "pass");
  if (bad >= 0) return `member ${bad} is not a valid JSON-RPC message`;
  const seen = new Set<RequestId>();
  for (const v of verdicts) {
    if (v.kind !== "pass" || !isRequest(v.message)) continue;
    const { id, method } = v.message;
    if (method === "initialize") return "initialize cannot be part of a batch";
    if (seen.has(id) || busy(id)) return `id ${JSON.stringify(id)} is used twice or by a request in progress`;
    seen.add(id);
  }
  return null;
}

/**
 * The answers when none of a batch runs: every request in it is answered, an invalid member with its own error and
 * the others with `why`; a batch without a request gets one error with `id: null`.
 */
export function refuseBatch(verdicts: readonly Verdict[], why: string): ErrorReply[] {
  const said = `Invalid request: batch refused: ${why}`;
  const replies = verdicts.flatMap((v): ErrorReply[] => {
    if (v.kind === "refuse") return [v.reply];
    return v.kind === "pass" && isRequest(v.message) ? [errorReply(v.message.id, ErrorCode.InvalidRequest, said)] : [];
  });
  return replies.length > 0 ? replies : [errorReply(null, ErrorCode.InvalidRequest, said)];
}

/**
 * Judges a batch (a JSON array). It passes whole when the session's protocol version allows batches and every member
 * is a valid message with an id of its own; otherwise none of it runs and `refuseBatch` answers it.
 */
export function checkBatch(items: readonly unknown[], allowed: boolean, busy: (id: RequestId) => boolean): BatchVerdict {
  if (items.length === 0) return { kind: "refuse", replies: [errorReply(null, ErrorCode.InvalidRequest, "Invalid request: an empty batch")] };
  const verdicts = items.map(classify);
  const problem = batchProblem(verdicts, allowed, busy);
  if (problem === null) return { kind: "pass", messages: verdicts.map((v) => (v as { message: JSONRPCMessage }).message) };
  return { kind: "refuse", replies: refuseBatch(verdicts, problem) };
}
