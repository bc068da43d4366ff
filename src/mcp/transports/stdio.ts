import type { Readable, Writable } from "node:stream";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CancelledNotificationSchema, ErrorCode, type JSONRPCMessage, type MessageExtraInfo } from "@modelcontextprotocol/sdk/types.js";
import { silentLogger, type Logger } from "../../core/log.js";
import { batchesAllowed, busyProblem, checkBatch, classify, errorReply, isRequest, parseErrorReply, type ErrorReply, type RequestId } from "../jsonrpc-checks.js";
import { GuardedTransport } from "./guarded.js";

const NEWLINE = 0x0a;

/** The answers to one batch, sent together once every request in it is answered (or cancelled). */
interface PendingBatch {
  waiting: Set<RequestId>;
  replies: JSONRPCMessage[];
}

export interface StdioLineOptions {
  stdin?: Readable;
  stdout?: Writable;
  /** Longest line read, in bytes; a longer one is skipped to its newline and answered -32600. */
  maxLineBytes?: number;
  /** Whether the session may send batches now (from the protocol version it negotiated). */
  batchesAllowed?: () => boolean;
  logger?: Logger;
}

/**
 * MCP over stdio, one JSON-RPC message (or batch) a line, in the SDK's framing (UTF-8, `\n`, an optional `\r`),
 * where every line is answered as JSON-RPC says: the SDK's own stdio transport drops a line that does not parse as a
 * message without a word. A line that is not JSON gets -32700 with `id: null`; an invalid message gets what
 * `classify` says; a batch is split into its messages and answered as one line, in order of completion, once all
 * are answered. A request id still in progress cannot be used again (-32600).
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;

  private readonly stdin: Readable;
  private readonly stdout: Writable;
  private readonly maxLineBytes: number;
  private readonly batchesAllowed: () => boolean;
  private readonly logger: Logger;
  /** The start of a line still waiting for its newline. */
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** A line over the limit is being skipped up to its newline. */
  private skipping = false;
  private readonly inFlight = new Set<RequestId>();
  /** Waiting for the last request in progress to be answered (see idle). */
  private idleWaiters: (() => void)[] = [];
  private readonly batchOf = new Map<RequestId, PendingBatch>();
  private readonly onData = (chunk: Buffer): void => this.read(chunk);
  private readonly onStdinError = (error: Error): void => this.onerror?.(error);

  constructor(o: StdioLineOptions = {}) {
    this.stdin = o.stdin ?? process.stdin;
    this.stdout = o.stdout ?? process.stdout;
    this.maxLineBytes = o.maxLineBytes ?? STDIO_DEFAULT_MAX_BUFFER_SIZE;
    this.batchesAllowed = o.batchesAllowed ?? (() => false);
    this.logger = o.logger ?? silentLogger;
  }

  async start(): Promise<void> {
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStdinError);
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStdinError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.parts = [];
    this.onclose?.();
  }

  /** Sends a message; an answer to a batch member is held until the whole batch is answered. */
  async send(message: JSONRPCMessage): Promise<void> {
    const id = "method" in message || !("id" in message) ? undefined : message.id;
    if (id === undefined) return this.write(message);
    this.inFlight.delete(id);
    try {
      const batch = this.batchOf.get(id);
      if (!batch) return await this.write(message);
      batch.replies.push(message);
      await this.settle(id);
    } finally {
      this.wakeIfIdle();
    }
  }

  /** Settles once no request is in progress: every one received so far is answered (written out) or cancelled. */
  idle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeIfIdle(): void {
    if (this.inFlight.size > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  /** Splits a chunk into lines; the bytes after the last newline wait for the next chunk. */
  private read(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(NEWLINE); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      const tooLong = this.skipping || this.partBytes + piece.length > this.maxLineBytes;
      const line = tooLong ? null : Buffer.concat([...this.parts, piece]).toString("utf8");
      this.parts = [];
      this.partBytes = 0;
      this.skipping = false;
      if (line === null) this.refuse(errorReply(null, ErrorCode.InvalidRequest, `Invalid request: a message is at most ${this.maxLineBytes} bytes`), "line too long");
      else this.line(line.endsWith("\r") ? line.slice(0, -1) : line);
    }
    const rest = chunk.subarray(start);
    if (this.skipping || rest.length === 0) return;
    this.parts.push(rest);
    this.partBytes += rest.length;
    if (this.partBytes > this.maxLineBytes) {
      this.parts = [];
      this.partBytes = 0;
      this.skipping = true;
    }
  }

  private line(text: string): void {
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.refuse(parseErrorReply("the line is not JSON"), "not JSON");
      return;
    }
    if (Array.isArray(value)) {
      this.batch(value);
      return;
    }
    const verdict = classify(value);
    if (verdict.kind === "drop") this.logger.log("debug", "message dropped", { why: verdict.why });
    else if (verdict.kind === "refuse") this.refuse(verdict.reply, "invalid message");
    else {
      const busy = busyProblem(verdict.message, (id) => this.inFlight.has(id));
      if (busy) this.refuse(busy, "id in use");
      else this.deliver(verdict.message);
    }
  }

  private batch(items: unknown[]): void {
    const verdict = checkBatch(items, this.batchesAllowed(), (id) => this.inFlight.has(id));
    if (verdict.kind === "refuse") {
      this.logger.log("debug", "batch refused", { members: items.length, answers: verdict.replies.length });
      this.write(verdict.replies).catch((err: unknown) => this.failed(err));
      return;
    }
    const ids = verdict.messages.filter(isRequest).map((m) => m.id);
    const pending: PendingBatch = { waiting: new Set(ids), replies: [] };
    for (const id of ids) this.batchOf.set(id, pending);
    for (const m of verdict.messages) this.deliver(m);
  }

  /** Hands a message to the server; a cancelled request will not be answered, so it stops counting as in progress. */
  private deliver(message: JSONRPCMessage): void {
    if (isRequest(message)) this.inFlight.add(message.id);
    const cancelled = CancelledNotificationSchema.safeParse(message);
    const id = cancelled.success ? cancelled.data.params.requestId : undefined;
    this.onmessage?.(message);
    if (id !== undefined && this.inFlight.delete(id)) {
      this.settle(id).catch((err: unknown) => this.failed(err));
      this.wakeIfIdle();
    }
  }

  /** Marks a batch member done; the batch's answers go out once none is waiting (none at all if all were cancelled). */
  private async settle(id: RequestId): Promise<void> {
    const batch = this.batchOf.get(id);
    if (!batch) return;
    this.batchOf.delete(id);
    batch.waiting.delete(id);
    if (batch.waiting.size === 0 && batch.replies.length > 0) await this.write(batch.replies);
  }

  private refuse(reply: ErrorReply, why: string): void {
    this.logger.log("debug", "message refused", { why, code: reply.error.code });
    this.write(reply).catch((err: unknown) => this.failed(err));
  }

  private failed(err: unknown): void {
    this.onerror?.(err instanceof Error ? err : new Error(String(err)));
  }

  private write(payload: unknown): Promise<void> {
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(payload)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }
}

/** After stdin ends, requests still in progress are waited for this long before the session closes. */
const DRAIN_MS = 30_000;

/**
 * Connects a server to this process's stdin and stdout (JSON-RPC only on stdout; logs go to stderr), through the
 * checks that answer every request. `closed` settles when the client ends the session: stdin ends or closes (once
 * the requests already sent are answered), or the server is closed.
 */
export async function connectStdio(server: Server, logger?: Logger): Promise<{ closed: Promise<void> }> {
  // The line transport asks the guard, which sees the answer to initialize, whether batches are allowed yet.
  let guard: GuardedTransport | null = null;
  const lines = new StdioLineTransport({ batchesAllowed: () => batchesAllowed(guard?.protocolVersion ?? null), ...(logger ? { logger } : {}) });
  guard = new GuardedTransport(lines);
  await server.connect(guard);
  const closed = new Promise<void>((resolve) => {
    const done = (): void => resolve();
    // The client ending stdin says goodbye: the requests it sent before are still answered (for DRAIN_MS at most),
    // then the session closes.
    const drain = (): void => {
      const timer = setTimeout(done, DRAIN_MS);
      timer.unref();
      void lines.idle().then(() => {
        clearTimeout(timer);
        done();
      });
    };
    process.stdin.once("end", drain);
    process.stdin.once("close", drain);
    server.onclose = done;
  });
  return { closed };
}
