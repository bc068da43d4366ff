/**
 * MCP Streamable HTTP (protocol 2025-03-26 / 2025-06-18) over plain `node:http`: `POST /mcp` carries JSON-RPC,
 * `GET /mcp` opens a session's SSE stream, `DELETE /mcp` ends a session; `GET /healthz` says only "ok".
 *
 * Every /mcp request passes, in order: Host (on loopback) and Origin checks (403), bearer token (401, one body for
 * missing and wrong tokens), the caller's rate limit (429 + Retry-After), then a body read under a cap (413). Sessions
 * are stateful, one MCP `Server` each, owned by the token that opened them (another token gets 404, as for an
 * unknown id), capped in number (503 when full) and closed after an idle timeout.
 */
import { randomUUID } from "node:crypto";
import { createServer as createHttpServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import { isLoopbackHost, type HttpSettings } from "../../config/http.js";
import { ConfigError } from "../../config/resolve.js";
import { newCorrelationId, type Logger } from "../../core/log.js";
import type { ServedRepos } from "../../service/deps.js";
import { createServer } from "../server.js";
import { RateLimiter, bearerOf, hostAllowed, matchToken, originAllowed, readJsonBody, sendError, sendParseError } from "./http-guard.js";

export const MCP_PATH = "/mcp";
export const HEALTH_PATH = "/healthz";
/** Who a request is when the server runs open (loopback, no tokens configured). */
const OPEN_CALLER = "anonymous";
/** Idle sessions are looked for at least this often. */
const MAX_SWEEP_INTERVAL_MS = 60_000;
/** On close, connections still busy after this long are cut. */
const SHUTDOWN_GRACE_MS = 5_000;
const SHUTDOWN_POLL_MS = 50;
const SESSION_HEADER = "mcp-session-id";
const CORS_ALLOW_HEADERS = "authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id";
const CORS_MAX_AGE_SECONDS = "600";
const ALLOWED_METHODS = "GET, POST, DELETE";
/** What a client refused for a full session table is told to wait. */
const FULL_RETRY_AFTER_SECONDS = 60;
/** The SDK's JSON-RPC code for an unknown session. */
const JSONRPC_SESSION_NOT_FOUND = -32001;

export interface HttpServerOptions {
  served: ServedRepos;
  settings: HttpSettings;
  logger: Logger;
  /** Injectable clock (ms) for rate limits and idle timeouts. */
  now?: () => number;
}

export interface HttpServerHandle {
  /** `http://HOST:PORT/mcp`, with the port actually bound (`port: 0` picks a free one). */
  url: string;
  close(): Promise<void>;
}

interface Session {
  id: string;
  /** Name of the token that opened it. */
  owner: string;
  server: Server;
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  /** Requests in progress, an open SSE stream included: a session with any is never idle. */
  active: number;
}

/** The answer for an unknown session id, and for another token's: a caller cannot tell one from the other. */
function sessionNotFound(res: ServerResponse): void {
  sendError(res, 404, "Session not found", {}, JSONRPC_SESSION_NOT_FOUND);
}

function urlHost(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

function listen(http: NodeHttpServer, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException): void => reject(new ConfigError(`cannot listen on ${urlHost(host)}:${port}: ${err.code ?? err.message}`));
    http.once("error", onError);
    http.listen(port, host, () => {
      http.off("error", onError);
      resolve(http.address() as AddressInfo);
    });
  });
}

/** Starts the HTTP server; resolves once it listens, after logging `listening` with its URL. */
export async function startHttpServer(opts: HttpServerOptions): Promise<HttpServerHandle> {
  const { settings, logger, served } = opts;
  const now = opts.now ?? Date.now;
  const loopback = isLoopbackHost(settings.host);
  if (!loopback && settings.tokens.length === 0) throw new ConfigError("serving over HTTP on a non-loopback host needs bearer tokens");
  // Fail at start, not on the first session, when the repositories cannot be served (an empty set, a bad key).
  await createServer(served).close();
  const allowedOrigins = new Set(settings.allowedOrigins);
  const limiter = new RateLimiter(settings.rateLimitPerMinute, now);
  const sessions = new Map<string, Session>();
  let opening = 0;
  let closing = false;

  const callerOf = (req: IncomingMessage): string | null => {
    if (settings.tokens.length === 0) return OPEN_CALLER;
    return matchToken(bearerOf(req.headers.authorization), settings.tokens)?.name ?? null;
  };

  const drop = (s: Session, why: string): void => {
    if (sessions.get(s.id) !== s) return;
    sessions.delete(s.id);
    logger.log("info", "session closed", { session: s.id, token: s.owner, why });
  };

  const closeSession = async (s: Session, why: string): Promise<void> => {
    drop(s, why);
    await s.server.close().catch(() => undefined);
  };

  /** The caller's own live session by the request's header; another caller's session is as good as unknown. */
  const sessionOf = (req: IncomingMessage, caller: string): Session | null => {
    const id = req.headers[SESSION_HEADER];
    const s = typeof id === "string" ? sessions.get(id) : undefined;
    return s && s.owner === caller ? s : null;
  };

  const serveInSession = async (s: Session, req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> => {
    s.active += 1;
    s.lastSeen = now();
    res.once("close", () => {
      s.active -= 1;
      s.lastSeen = now();
    });
    await s.transport.handleRequest(req, res, body);
  };

  const openSession = async (caller: string, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    if (sessions.size + opening >= settings.maxSessions) {
      logger.log("warn", "session refused: the server is at its session cap", { token: caller, maxSessions: settings.maxSessions });
      sendError(res, 503, "Too many sessions", { "retry-after": String(FULL_RETRY_AFTER_SECONDS) });
      return;
    }
    opening += 1;
    const server = createServer(served);
    // Set right below; the transport's callbacks run only once a request is handled.
    let session: Session | undefined;
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      // Tools answer in one message: a JSON response is simpler for every client than a one-event SSE stream.
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        session!.id = id;
        sessions.set(id, session!);
        logger.log("info", "session opened", { session: id, token: caller });
      },
      onsessionclosed: () => drop(session!, "ended by the client"),
    });
    session = { id: "", owner: caller, server, transport, lastSeen: now(), active: 0 };
    transport.onclose = () => drop(session!, "transport closed");
    try {
      await server.connect(transport);
      await serveInSession(session, req, res, body);
    } finally {
      opening -= 1;
      if (!session.id) await server.close().catch(() => undefined);
    }
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const origin = req.headers.origin;
    if (!originAllowed(origin, allowedOrigins, loopback)) {
      logger.log("warn", "request refused: origin not allowed", { remote: req.socket.remoteAddress });
      sendError(res, 403, "Forbidden");
      return;
    }
    if (origin !== undefined) {
      res.setHeader("access-control-allow-origin", origin);
      res.setHeader("access-control-expose-headers", SESSION_HEADER);
      res.setHeader("vary", "Origin");
    }
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "access-control-allow-methods": ALLOWED_METHODS, "access-control-allow-headers": CORS_ALLOW_HEADERS, "access-control-max-age": CORS_MAX_AGE_SECONDS });
      res.end();
      return;
    }
    const caller = callerOf(req);
    if (caller === null) {
      logger.log("warn", "request refused: missing or unknown bearer token", { remote: req.socket.remoteAddress });
      sendError(res, 401, "Unauthorized", { "www-authenticate": 'Bearer realm="repoctx"' });
      return;
    }
    const wait = limiter.take(caller);
    if (wait > 0) {
      logger.log("warn", "request refused: rate limit", { token: caller, retryAfterSeconds: wait });
      sendError(res, 429, "Too many requests", { "retry-after": String(wait) });
      return;
    }
    if (req.method === "POST") {
      const read = await readJsonBody(req, settings.maxRequestBytes);
      if (!read.ok) {
        if (read.status === 413) sendError(res, 413, "Request body too large", { connection: "close" });
        else sendParseError(res);
        return;
      }
      if (req.headers[SESSION_HEADER] === undefined) {
        if (isInitializeRequest(read.body)) await openSession(caller, req, res, read.body);
        else sendError(res, 400, "Bad Request: no session; send initialize first");
        return;
      }
      const s = sessionOf(req, caller);
      if (s) await serveInSession(s, req, res, read.body);
      else sessionNotFound(res);
      return;
    }
    if (req.method === "GET" || req.method === "DELETE") {
      const s = sessionOf(req, caller);
      if (s) await serveInSession(s, req, res);
      else if (req.headers[SESSION_HEADER] === undefined) sendError(res, 400, "Bad Request: Mcp-Session-Id header is required");
      else sessionNotFound(res);
      return;
    }
    sendError(res, 405, "Method not allowed", { allow: ALLOWED_METHODS });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = now();
    res.once("finish", () => logger.log("debug", "request", { method: req.method, path: req.url?.split("?")[0], status: res.statusCode, ms: now() - started }));
    if (closing) {
      sendError(res, 503, "Shutting down", { connection: "close" });
      return;
    }
    if (!hostAllowed(req.headers.host, settings.host)) {
      logger.log("warn", "request refused: Host header does not name this machine", { remote: req.socket.remoteAddress });
      sendError(res, 403, "Forbidden");
      return;
    }
    const path = (req.url ?? "/").split("?")[0];
    if (path === HEALTH_PATH && (req.method === "GET" || req.method === "HEAD")) {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(req.method === "HEAD" ? undefined : JSON.stringify({ status: "ok" }));
      return;
    }
    if (path !== MCP_PATH) {
      sendError(res, 404, "Not found");
      return;
    }
    await handleMcp(req, res);
  };

  const http = createHttpServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const correlationId = newCorrelationId();
      logger.log("error", "HTTP request failed", { correlationId, error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) });
      sendError(res, 500, `Internal error; the server log has details under correlation id ${correlationId}`);
    });
  });

  const sweeper = setInterval(
    () => {
      const t = now();
      for (const s of [...sessions.values()]) if (s.active === 0 && t - s.lastSeen > settings.sessionIdleMs) void closeSession(s, "idle");
    },
    Math.min(settings.sessionIdleMs, MAX_SWEEP_INTERVAL_MS),
  );
  sweeper.unref();

  const address = await listen(http, settings.host, settings.port).catch((err: unknown) => {
    clearInterval(sweeper);
    throw err;
  });
  const url = `http://${urlHost(settings.host)}:${address.port}${MCP_PATH}`;
  logger.log("info", "listening", { url, tokens: settings.tokens.map((t) => t.name), maxSessions: settings.maxSessions });
  if (settings.tokens.length === 0) {
    logger.log("warn", "HTTP serving without authentication: no bearer tokens are configured, so any program on this machine can read the served repositories", {
      url,
    });
  }

  return {
    url,
    async close() {
      if (closing) return;
      closing = true;
      clearInterval(sweeper);
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      await Promise.all([...sessions.values()].map((s) => closeSession(s, "server shutting down")));
      // A connection turns idle once its response has ended (a closed SSE stream a moment later): close each then,
      // and cut whatever is still busy after the grace period.
      http.closeIdleConnections();
      const idle = setInterval(() => http.closeIdleConnections(), SHUTDOWN_POLL_MS);
      const cut = setTimeout(() => http.closeAllConnections(), SHUTDOWN_GRACE_MS);
      await stopped;
      clearInterval(idle);
      clearTimeout(cut);
      logger.log("info", "stopped", { url });
    },
  };
}
