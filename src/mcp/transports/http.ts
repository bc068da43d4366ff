/**
 * MCP Streamable HTTP (protocol 2025-03-26 / 2025-06-18) over plain `node:http`: `POST /mcp` carries JSON-RPC,
 * `GET /mcp` opens a session's SSE stream, `DELETE /mcp` ends a session; `GET /healthz` says only "ok".
 *
 * Every /mcp request passes, in order: Host (on loopback) and Origin checks (403), bearer token (401, one body for
 * missing and wrong tokens), the caller's rate limit (429 + Retry-After), then a body read under a cap (413) and judged
 * as JSON-RPC (400 with the JSON-RPC error, see `http-body.ts`). Sessions are stateful, one MCP `Server` each, owned
 * by the token that opened them (another token gets 404, as for an unknown id), capped in number (503 when full) and
 * closed after an idle timeout.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server as NodeHttpServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isLoopbackHost, type HttpSettings } from "../../config/http.js";
import { ConfigError } from "../../config/resolve.js";
import { newCorrelationId, type Logger } from "../../core/log.js";
import type { ServedRepos } from "../../service/deps.js";
import { createServer, type ToolCaller } from "../server.js";
import { judgeForSession, judgeOpening } from "./http-body.js";
import { RateLimiter, bearerOf, hostAllowed, matchToken, originAllowed, readJsonBody, sendError, sendErrorReplies, sendParseError } from "./http-guard.js";
import { SESSION_HEADER, SessionTable, sessionNotFound } from "./http-sessions.js";

export const MCP_PATH = "/mcp";
export const HEALTH_PATH = "/healthz";
/** Who a request is when the server runs open (loopback, no tokens configured). */
const OPEN_CALLER = "anonymous";
/** Idle sessions are looked for at least this often. */
const MAX_SWEEP_INTERVAL_MS = 60_000;
/** On close, connections still busy after this long are cut. */
const SHUTDOWN_GRACE_MS = 5_000;
const SHUTDOWN_POLL_MS = 50;
const CORS_ALLOW_HEADERS = "authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id";
const CORS_MAX_AGE_SECONDS = "600";
const ALLOWED_METHODS = "GET, POST, DELETE";

export interface HttpServerOptions {
  served: ServedRepos;
  /** Tool names to expose (default all). */
  tools?: readonly string[];
  /** Answers tools/call for every session instead of this thread (`serve --http`'s worker pool). */
  callTool?: ToolCaller;
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

/** What every request is checked and routed with: the settings, the rate limiter and the session table. */
interface Router {
  settings: HttpSettings;
  logger: Logger;
  now: () => number;
  loopback: boolean;
  allowedOrigins: ReadonlySet<string>;
  limiter: RateLimiter;
  sessions: SessionTable;
  /** Set once the server is stopping: new requests get 503. */
  closing: boolean;
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

/** The token name a request carries (OPEN_CALLER when no tokens are configured); null for a missing or wrong token. */
function callerOf(settings: HttpSettings, req: IncomingMessage): string | null {
  if (settings.tokens.length === 0) return OPEN_CALLER;
  return matchToken(bearerOf(req.headers.authorization), settings.tokens)?.name ?? null;
}

/**
 * The Origin check and CORS headers; answers a preflight itself. Returns false when the request has been answered
 * (refused, or the preflight's 204).
 */
function passOrigin(r: Router, req: IncomingMessage, res: ServerResponse): boolean {
  const origin = req.headers.origin;
  if (!originAllowed(origin, r.allowedOrigins, r.loopback)) {
    r.logger.log("warn", "request refused: origin not allowed", { remote: req.socket.remoteAddress });
    sendError(res, 403, "Forbidden");
    return false;
  }
  if (origin !== undefined) {
    res.setHeader("access-control-allow-origin", origin);
    res.setHeader("access-control-expose-headers", SESSION_HEADER);
    res.setHeader("vary", "Origin");
  }
  if (req.method === "OPTIONS") {
    res.writeHead(204, { "access-control-allow-methods": ALLOWED_METHODS, "access-control-allow-headers": CORS_ALLOW_HEADERS, "access-control-max-age": CORS_MAX_AGE_SECONDS });
    res.end();
    return false;
  }
  return true;
}

/** The caller by bearer token (401 otherwise), within its rate limit (429 otherwise); null when refused. */
function admit(r: Router, req: IncomingMessage, res: ServerResponse): string | null {
  const caller = callerOf(r.settings, req);
  if (caller === null) {
    r.logger.log("warn", "request refused: missing or unknown bearer token", { remote: req.socket.remoteAddress });
    sendError(res, 401, "Unauthorized", { "www-authenticate": 'Bearer realm="repoctx"' });
    return null;
  }
  const wait = r.limiter.take(caller);
  if (wait > 0) {
    r.logger.log("warn", "request refused: rate limit", { token: caller, retryAfterSeconds: wait });
    sendError(res, 429, "Too many requests", { "retry-after": String(wait) });
    return null;
  }
  return caller;
}

/**
 * A POST: the body read under its cap and judged as JSON-RPC (an invalid one is answered 400 here), then a lone
 * initialize opens a session and anything else goes to the caller's own.
 */
async function routePost(r: Router, caller: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const read = await readJsonBody(req, r.settings.maxRequestBytes);
  if (!read.ok) {
    if (read.status === 413) sendError(res, 413, "Request body too large", { connection: "close" });
    else sendParseError(res);
    return;
  }
  if (req.headers[SESSION_HEADER] === undefined) {
    const opening = judgeOpening(read.body);
    if (opening.kind === "answer") sendErrorReplies(res, 400, opening.payload);
    else await r.sessions.open(caller, req, res, read.body);
    return;
  }
  const s = r.sessions.of(req, caller);
  if (!s) {
    sessionNotFound(res);
    return;
  }
  const judged = judgeForSession(read.body, s.guard.protocolVersion, (id) => s.inFlight.has(id));
  if (judged.kind === "answer") sendErrorReplies(res, 400, judged.payload);
  else await r.sessions.serve(s, req, res, read.body, judged.requestIds);
}

/** `/mcp`: origin, token, rate limit, then POST (JSON-RPC), GET (a session's SSE stream) or DELETE (end a session). */
async function routeMcp(r: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!passOrigin(r, req, res)) return;
  const caller = admit(r, req, res);
  if (caller === null) return;
  if (req.method === "POST") return routePost(r, caller, req, res);
  if (req.method === "GET" || req.method === "DELETE") {
    const s = r.sessions.of(req, caller);
    if (s) await r.sessions.serve(s, req, res);
    else if (req.headers[SESSION_HEADER] === undefined) sendError(res, 400, "Bad Request: Mcp-Session-Id header is required");
    else sessionNotFound(res);
    return;
  }
  sendError(res, 405, "Method not allowed", { allow: ALLOWED_METHODS });
}

/** Every request: refused while stopping, Host checked, `/healthz` answered, `/mcp` routed, anything else 404. */
async function route(r: Router, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const started = r.now();
  res.once("finish", () => r.logger.log("debug", "request", { method: req.method, path: req.url?.split("?")[0], status: res.statusCode, ms: r.now() - started }));
  if (r.closing) {
    sendError(res, 503, "Shutting down", { connection: "close" });
    return;
  }
  if (!hostAllowed(req.headers.host, r.settings.host)) {
    r.logger.log("warn", "request refused: Host header does not name this machine", { remote: req.socket.remoteAddress });
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
  await routeMcp(r, req, res);
}

/** Stops accepting, closes the sessions, lets busy connections finish for the grace period, then cuts the rest. */
async function stop(r: Router, http: NodeHttpServer, sweeper: NodeJS.Timeout, url: string): Promise<void> {
  if (r.closing) return;
  r.closing = true;
  clearInterval(sweeper);
  const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
  await r.sessions.closeAll("server shutting down");
  // A connection turns idle once its response has ended (a closed SSE stream a moment later): close each then,
  // and cut whatever is still busy after the grace period.
  http.closeIdleConnections();
  const idle = setInterval(() => http.closeIdleConnections(), SHUTDOWN_POLL_MS);
  const cut = setTimeout(() => http.closeAllConnections(), SHUTDOWN_GRACE_MS);
  await stopped;
  clearInterval(idle);
  clearTimeout(cut);
  r.logger.log("info", "stopped", { url });
}

/** Starts the HTTP server; resolves once it listens, after logging `listening` with its URL. */
export async function startHttpServer(opts: HttpServerOptions): Promise<HttpServerHandle> {
  const { settings, logger, served } = opts;
  const now = opts.now ?? Date.now;
  const loopback = isLoopbackHost(settings.host);
  if (!loopback && settings.tokens.length === 0) throw new ConfigError("serving over HTTP on a non-loopback host needs bearer tokens");
  // Fail at start, not on the first session, when the repositories cannot be served (an empty set, a bad key).
  await createServer(served).close();
  const r: Router = {
    settings,
    logger,
    now,
    loopback,
    allowedOrigins: new Set(settings.allowedOrigins),
    limiter: new RateLimiter(settings.rateLimitPerMinute, now),
    sessions: new SessionTable({ served, ...(opts.tools ? { tools: opts.tools } : {}), ...(opts.callTool ? { callTool: opts.callTool } : {}), maxSessions: settings.maxSessions, logger, now }),
    closing: false,
  };
  const http = createHttpServer((req, res) => {
    route(r, req, res).catch((err: unknown) => {
      const correlationId = newCorrelationId();
      logger.log("error", "HTTP request failed", { correlationId, error: err instanceof Error ? { name: err.name, message: err.message, stack: err.stack } : String(err) });
      sendError(res, 500, `Internal error; the server log has details under correlation id ${correlationId}`);
    });
  });
  const sweeper = setInterval(() => r.sessions.closeIdle(settings.sessionIdleMs), Math.min(settings.sessionIdleMs, MAX_SWEEP_INTERVAL_MS));
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
  return { url, close: () => stop(r, http, sweeper, url) };
}
