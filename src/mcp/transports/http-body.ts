/**
 * A POST body judged as JSON-RPC before the SDK's Streamable HTTP transport sees it. The SDK refuses any body that is
 * not a valid message with -32700 and `id: null`, takes a batch whatever the protocol version, and loses the answer
 * to one of two requests in progress with the same id (the second request waits forever). Here an invalid message is
 * answered with its own id and code, a batch is taken only where the session's protocol version allows batches, and
 * an id already in progress in the session is refused.
 */
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import { JSONRPC_SERVER_ERROR } from "./http-guard.js";
import { batchesAllowed, busyProblem, checkBatch, checkParams, classify, errorReply, isRequest, refuseBatch, type ErrorReply, type RequestId } from "../jsonrpc-checks.js";

/** The body goes on (its request ids in progress until the response closes), or is answered here with HTTP 400. */
export type BodyDecision = { kind: "go"; requestIds: RequestId[] } | { kind: "answer"; payload: ErrorReply | ErrorReply[] };

const NO_SESSION = "no session; send initialize first, on its own";

function answer(payload: ErrorReply | ErrorReply[]): BodyDecision {
  return { kind: "answer", payload };
}

/** A body without a session header: only a lone, valid initialize request opens one. */
export function judgeOpening(body: unknown): BodyDecision {
  if (Array.isArray(body)) return answer(refuseBatch(body.map(classify), NO_SESSION));
  const v = classify(body);
  if (v.kind === "refuse") return answer(v.reply);
  if (v.kind === "drop") return answer(errorReply(null, ErrorCode.InvalidRequest, `Invalid request: ${v.why}`));
  if (!isRequest(v.message)) return answer(errorReply(null, JSONRPC_SERVER_ERROR, `Bad Request: ${NO_SESSION}`));
  if (v.message.method !== "initialize") return answer(errorReply(v.message.id, JSONRPC_SERVER_ERROR, `Bad Request: ${NO_SESSION}`));
  const params = checkParams(v.message);
  return params ? answer(params) : { kind: "go", requestIds: [v.message.id] };
}

/** A body for a live session that negotiated `protocolVersion`, with `busy` telling the ids in progress there. */
export function judgeForSession(body: unknown, protocolVersion: string | null, busy: (id: RequestId) => boolean): BodyDecision {
  if (Array.isArray(body)) {
    const batch = checkBatch(body, batchesAllowed(protocolVersion), busy);
    return batch.kind === "refuse" ? answer(batch.replies) : { kind: "go", requestIds: batch.messages.filter(isRequest).map((m) => m.id) };
  }
  const v = classify(body);
  if (v.kind === "refuse") return answer(v.reply);
  if (v.kind === "drop") return answer(errorReply(null, ErrorCode.InvalidRequest, `Invalid request: ${v.why}`));
  const taken = busyProblem(v.message, busy);
  if (taken) return answer(taken);
  // The SDK refuses this one too, but without the request's id.
  if (isRequest(v.message) && v.message.method === "initialize") return answer(errorReply(v.message.id, ErrorCode.InvalidRequest, "Invalid request: this session is already initialized"));
  return { kind: "go", requestIds: isRequest(v.message) ? [v.message.id] : [] };
}
