/**
 * The checks every HTTP request passes before MCP sees it, as small pure-ish pieces: Host and Origin against DNS
 * rebinding, bearer tokens compared in constant time, a token bucket per caller, and a body read under a cap.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isLoopbackHost, type BearerToken } from "../../config/http.js";

const SECONDS_PER_MINUTE = 60;
const MS_PER_SECOND = 1000;
/** JSON-RPC's code for a refusal of the server's own making (the SDK's transports use it for HTTP-level refusals). */
export const JSONRPC_SERVER_ERROR = -32000;
const JSONRPC_PARSE_ERROR = -32700;

/** Hostnames a browser sends in `Host` or `Origin` for this machine itself. */
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/**
 * A JSON-RPC error body that says what kind of refusal this is and nothing else: no repository, no version, no hint
 * of which check failed beyond the status. The same body for every request refused for the same reason.
 */
export function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}, code = JSONRPC_SERVER_ERROR): void {
  sendErrorReplies(res, status, { jsonrpc: "2.0", error: { code, message }, id: null }, headers);
}

/** JSON-RPC error responses (one, or a batch's) sent with an HTTP error status. */
export function sendErrorReplies(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(payload));
}

export function sendParseError(res: ServerResponse): void {
  sendError(res, 400, "Parse error", {}, JSONRPC_PARSE_ERROR);
}

/** The hostname of a `Host` header (`[::1]:8080` → `[::1]`, `localhost:80` → `localhost`); null when malformed. */
export function hostnameOf(hostHeader: string | undefined): string | null {
  if (!hostHeader) return null;
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * On a loopback listener the `Host` header must name this machine: a page on `evil.example` that rebinds its name
 * to 127.0.0.1 still sends `Host: evil.example`. Other listeners sit behind names the operator chose; tokens guard them.
 */
export function hostAllowed(hostHeader: string | undefined, boundHost: string): boolean {
  if (!isLoopbackHost(boundHost)) return true;
  const name = hostnameOf(hostHeader);
  return name !== null && (isLoopbackHost(name) || name === boundHost.toLowerCase());
}

/**
 * A request without `Origin` comes from a program, not a browser page, and passes. A present one must be listed,
 * or be a loopback origin when the server itself is bound to loopback. `Origin: null` (sandboxed pages, files) never passes.
 */
export function originAllowed(origin: string | undefined, allowed: ReadonlySet<string>, loopback: boolean): boolean {
  if (origin === undefined) return true;
  let normalized: string;
  try {
    normalized = new URL(origin).origin;
  } catch {
    return false;
  }
  if (normalized === "null") return false;
  return allowed.has(normalized) || (loopback && LOOPBACK_ORIGIN.test(normalized));
}

/** The secret of an `Authorization: Bearer <token>` header, or null. */
export function bearerOf(header: string | undefined): string | null {
  const m = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(header ?? "");
  return m ? m[1]! : null;
}

/**
 * The configured token a presented secret matches. Both sides are SHA-256 digests of equal length compared with
 * `timingSafeEqual`, and every token is compared, so neither the length nor the position of a match shows in timing.
 */
export function matchToken(presented: string | null, tokens: readonly BearerToken[]): BearerToken | null {
  if (presented === null) return null;
  const digest = createHash("sha256").update(presented, "utf8").digest();
  let found: BearerToken | null = null;
  for (const t of tokens) if (timingSafeEqual(digest, t.sha256) && found === null) found = t;
  return found;
}

/** Per-caller token buckets: `perMinute` requests a minute on average, bursts up to `perMinute`. */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / (SECONDS_PER_MINUTE * MS_PER_SECOND);
  }

  /** Takes one request from the caller's bucket: 0 when allowed, else the seconds until one is available. */
  take(caller: string): number {
    const t = this.now();
    const b = this.buckets.get(caller) ?? { tokens: this.perMinute, at: t };
    b.tokens = Math.min(this.perMinute, b.tokens + (t - b.at) * this.perMs);
    b.at = t;
    this.buckets.set(caller, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perMs / MS_PER_SECOND));
  }
}

export type BodyRead = { ok: true; body: unknown } | { ok: false; status: 400 | 413 };

/**
 * Reads a JSON body of at most `maxBytes`: a larger declared `Content-Length` is refused before a byte is read, and
 * a body that grows past the cap while streaming stops being buffered at once.
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ ok: false, status: 413 });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: BodyRead): void => {
      if (done) return;
      done = true;
      resolve(r);
    };
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        finish({ ok: false, status: 413 });
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      try {
        finish({ ok: true, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown });
      } catch {
        finish({ ok: false, status: 400 });
      }
    });
    req.on("error", () => finish({ ok: false, status: 400 }));
  });
}
