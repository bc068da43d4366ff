import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { Logger } from "../../core/log.js";
import type { ServedRepos } from "../../service/deps.js";
import { createServer, type ToolCaller } from "../server.js";
import type { RequestId } from "../jsonrpc-checks.js";
import { GuardedTransport } from "./guarded.js";
import { sendError } from "./http-guard.js";
import { releaseAnsweredJsonStreams } from "./json-streams.js";

export const SESSION_HEADER = "mcp-session-id";
/** What a client refused for a full session table is told to wait. */
const FULL_RETRY_AFTER_SECONDS = 60;
/** The SDK's JSON-RPC code for an unknown session. */
const JSONRPC_SESSION_NOT_FOUND = -32001;

interface Session {
  id: string;
  /** Name of the token that opened it. */
  owner: string;
  server: Server;
  transport: StreamableHTTPServerTransport;
  /** What the server is connected to: the transport behind the params checks; it knows the negotiated version. */
  guard: GuardedTransport;
  /** Ids of the requests in progress: each POST's until its response closes. */
  inFlight: Set<RequestId>;
  lastSeen: number;
  /** Requests in progress, an open SSE stream included: a session with any is never idle. */
  active: number;
}

export interface SessionTableOptions {
  served: ServedRepos;
  /** Tool names to expose (default all). */
  tools?: readonly string[];
  /** Answers tools/call for every session (a worker pool); default: the session's own server, in this thread. */
  callTool?: ToolCaller;
  maxSessions: number;
  logger: Logger;
  now: () => number;
}

/** The answer for an unknown session id, and for another token's: a caller cannot tell one from the other. */
export function sessionNotFound(res: ServerResponse): void {
  sendError(res, 404, "Session not found", {}, JSONRPC_SESSION_NOT_FOUND);
}

/**
 * The live MCP sessions of one HTTP server: one MCP `Server` each, owned by the token that opened it, capped in
 * number (503 when full), closed when idle or when the server stops.
 */
export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  /** Sessions whose initialize is still being answered: they count against the cap before they have an id. */
  private opening = 0;

  constructor(private readonly o: SessionTableOptions) {}

  /** The caller's own live session by the request's header; another caller's session is as good as unknown. */
  of(req: IncomingMessage, caller: string): Session | null {
    const id = req.headers[SESSION_HEADER];
    const s = typeof id === "string" ? this.sessions.get(id) : undefined;
    return s && s.owner === caller ? s : null;
  }

  /**
   * Hands a request to its session's transport, counting it as activity, and the ids of the requests it carries as
   * in progress, until the response closes.
   */
  async serve(s: Session, req: IncomingMessage, res: ServerResponse, body?: unknown, requestIds: readonly RequestId[] = []): Promise<void> {
    s.active += 1;
    s.lastSeen = this.o.now();
    for (const id of requestIds) s.inFlight.add(id);
    res.once("close", () => {
      s.active -= 1;
      s.lastSeen = this.o.now();
      for (const id of requestIds) s.inFlight.delete(id);
    });
    await s.transport.handleRequest(req, res, body);
    releaseAnsweredJsonStreams(s.transport);
  }

  /** Opens a session for an initialize request (503 when the table is full); it is listed once the SDK gives it an id. */
  async open(caller: string, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const { logger, maxSessions } = this.o;
    if (this.sessions.size + this.opening >= maxSessions) {
      logger.log("warn", "session refused: the server is at its session cap", { token: caller, maxSessions });
      sendError(res, 503, "Too many sessions", { "retry-after": String(FULL_RETRY_AFTER_SECONDS) });
      return;
    }
    this.opening += 1;
    const server = createServer(this.o.served, this.o.tools, this.o.callTool ? { callTool: this.o.callTool } : {});
    // Set right below; the transport's callbacks run only once a request is handled.
    let session: Session | undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Tools answer in one message: a JSON response is simpler for every client than a one-event SSE stream.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        session!.id = id;
        this.sessions.set(id, session!);
        logger.log("info", "session opened", { session: id, token: caller });
      },
      onsessionclosed: () => this.drop(session!, "ended by the client"),
    });
    const guard = new GuardedTransport(transport);
    session = { id: "", owner: caller, server, transport, guard, inFlight: new Set(), lastSeen: this.o.now(), active: 0 };
    transport.onclose = () => this.drop(session!, "transport closed");
    try {
      await server.connect(guard);
      await this.serve(session, req, res, body);
    } finally {
      this.opening -= 1;
      if (!session.id) await server.close().catch(() => undefined);
    }
  }

  /** Closes every session with no request in progress that has been quiet for longer than `idleMs`. */
  closeIdle(idleMs: number): void {
    const t = this.o.now();
    for (const s of [...this.sessions.values()]) if (s.active === 0 && t - s.lastSeen > idleMs) void this.close(s, "idle");
  }

  async closeAll(why: string): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.close(s, why)));
  }

  private drop(s: Session, why: string): void {
    if (this.sessions.get(s.id) !== s) return;
    this.sessions.delete(s.id);
    this.o.logger.log("info", "session closed", { session: s.id, token: s.owner, why });
  }

  private async close(s: Session, why: string): Promise<void> {
    this.drop(s, why);
    await s.server.close().catch(() => undefined);
  }
}
