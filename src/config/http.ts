import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { ConfigError } from "./resolve.js";
import { MIN_HTTP_TOKEN_CHARS, type HttpConfig } from "./schema.js";

/** Comma-separated bearer tokens, added to those of the policy file. */
export const HTTP_TOKENS_ENV = "REPOCTX_HTTP_TOKENS";
const ENV_TOKEN_NAME_PREFIX = "env-";
const MS_PER_SECOND = 1000;

/** A bearer token as the server keeps it: its name and the SHA-256 digest of the secret, never the secret. */
export interface BearerToken {
  name: string;
  sha256: Buffer;
}

/** Everything `serve --http` needs, resolved once at start. */
export interface HttpSettings {
  host: string;
  port: number;
  /** Empty only on a loopback host: the server then runs open and says so. */
  tokens: BearerToken[];
  /** Extra exact origins (normalized with `URL.origin`); loopback origins are added on a loopback host. */
  allowedOrigins: string[];
  maxRequestBytes: number;
  rateLimitPerMinute: number;
  maxSessions: number;
  sessionIdleMs: number;
}

export function bearerToken(name: string, secret: string): BearerToken {
  return { name, sha256: createHash("sha256").update(secret, "utf8").digest() };
}

/** `localhost`, 127.0.0.0/8 and ::1 (with or without brackets): hosts only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost" || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

function tooShort(what: string): ConfigError {
  return new ConfigError(`${what} is shorter than ${MIN_HTTP_TOKEN_CHARS} characters; use a long random token`);
}

/**
 * The HTTP settings from the policy file's `http:` section, `REPOCTX_HTTP_TOKENS` and the command line. Refuses a
 * non-loopback host without tokens, and tokens named by an environment variable that is unset or too short.
 * Messages name variables and token names, never token values.
 */
export function resolveHttpSettings(config: HttpConfig, listen: { host: string; port: number }, env: NodeJS.ProcessEnv = process.env): HttpSettings {
  const tokens: BearerToken[] = [];
  for (const t of config.tokens) {
    const secret = t.token ?? env[t.tokenEnv ?? ""] ?? "";
    if (secret === "") throw new ConfigError(`http token '${t.name}': environment variable ${t.tokenEnv ?? ""} is not set`);
    if (secret.length < MIN_HTTP_TOKEN_CHARS) throw tooShort(`http token '${t.name}'`);
    tokens.push(bearerToken(t.name, secret));
  }
  const fromEnv = (env[HTTP_TOKENS_ENV] ?? "").split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  fromEnv.forEach((secret, i) => {
    if (secret.length < MIN_HTTP_TOKEN_CHARS) throw tooShort(`token ${i + 1} of ${HTTP_TOKENS_ENV}`);
    tokens.push(bearerToken(`${ENV_TOKEN_NAME_PREFIX}${i + 1}`, secret));
  });
  if (tokens.length === 0 && !isLoopbackHost(listen.host)) {
    throw new ConfigError(
      `serving over HTTP on a non-loopback host needs bearer tokens: set ${HTTP_TOKENS_ENV} or http.tokens in the policy file (or bind to 127.0.0.1)`,
    );
  }
  return {
    host: listen.host,
    port: listen.port,
    tokens,
    allowedOrigins: config.allowedOrigins.map((o) => new URL(o).origin),
    maxRequestBytes: config.maxRequestBytes,
    rateLimitPerMinute: config.rateLimitPerMinute,
    maxSessions: config.maxSessions,
    sessionIdleMs: config.sessionIdleSeconds * MS_PER_SECOND,
  };
}
