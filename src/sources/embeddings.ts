import type { SemanticConfig } from "../config/schema.js";
import { DEFAULT_EMBEDDING_BATCH, type EmbeddingProvider, EmbeddingProviderError } from "../core/semantic.js";

/** The operator's OpenAI-compatible embeddings endpoint: a request-time input from outside the index (and, at build time, the file vectors). */

/** Characters of an error response kept in the message: enough for "model not found", not a page of HTML. */
const ERROR_DETAIL_CHARS = 200;
const REDACTED = "[redacted]";

export interface OpenAiCompatibleOptions {
  url: string;
  model: string;
  /** Sent as a bearer token; held in a closure, never in a property, a log line or an error message. */
  apiKey?: string | null;
  dimensions?: number;
  timeoutMs: number;
  batchSize?: number;
}

/** A client for POST {url}/v1/embeddings {model, input} → {data: [{embedding, index}]}. */
export function openAiCompatibleProvider(opts: OpenAiCompatibleOptions): EmbeddingProvider {
  const endpoint = embeddingsEndpoint(opts.url);
  const batchSize = Math.max(1, opts.batchSize ?? DEFAULT_EMBEDDING_BATCH);
  const apiKey = opts.apiKey ?? null;
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const scrub = (text: string) => (apiKey ? text.split(apiKey).join(REDACTED) : text);
  return {
    kind: "openai_compatible",
    model: opts.model,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        // Endpoints reject empty strings; a file with no text still needs a vector.
        const input = texts.slice(start, start + batchSize).map((t) => (t.length > 0 ? t : " "));
        const body = { model: opts.model, input, ...(opts.dimensions ? { dimensions: opts.dimensions } : {}) };
        const json = await postJson(endpoint, body, headers, opts.timeoutMs, scrub);
        out.push(...parseEmbeddings(json, input.length, opts.dimensions));
      }
      return out;
    },
  };
}

/** The configured provider: the built-in one unless the operator named an endpoint. `env` supplies the key. */
export function createEmbeddingProvider(config: SemanticConfig, env: NodeJS.ProcessEnv, builtin: () => EmbeddingProvider): EmbeddingProvider {
  if (config.provider === "builtin") return builtin();
  if (!config.url || !config.model) throw new EmbeddingProviderError("config", "semantic.url and semantic.model are required for openai_compatible");
  let apiKey: string | null = null;
  if (config.apiKeyEnv) {
    apiKey = env[config.apiKeyEnv] ?? null;
    if (!apiKey) throw new EmbeddingProviderError("config", `environment variable ${config.apiKeyEnv} (semantic.apiKeyEnv) is not set`);
  }
  return openAiCompatibleProvider({
    url: config.url,
    model: config.model,
    apiKey,
    timeoutMs: config.timeoutMs,
    ...(config.dimensions ? { dimensions: config.dimensions } : {}),
  });
}

/** `{url}/v1/embeddings`, or `{url}/embeddings` when the URL already ends in /v1. */
export function embeddingsEndpoint(url: string): string {
  const base = url.replace(/\/+$/, "");
  return base.endsWith("/v1") ? `${base}/embeddings` : `${base}/v1/embeddings`;
}

async function postJson(
  endpoint: string,
  body: unknown,
  headers: Record<string, string>,
  timeoutMs: number,
  scrub: (text: string) => string,
): Promise<unknown> {
  let text: string;
  let status: number;
  try {
    // A redirect is refused: it could carry repository text, and the key, to another host.
    const res = await fetch(endpoint, { method: "POST", headers, body: JSON.stringify(body), redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
    status = res.status;
    text = await res.text();
  } catch (err) {
    if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) {
      throw new EmbeddingProviderError("timeout", `embeddings endpoint did not answer within ${timeoutMs} ms`);
    }
    throw new EmbeddingProviderError("network", `could not reach the embeddings endpoint (${networkCode(err)})`);
  }
  if (status < 200 || status >= 300) {
    const detail = errorDetail(text, scrub);
    throw new EmbeddingProviderError("http", `embeddings endpoint answered HTTP ${status}${detail ? `: ${detail}` : ""}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EmbeddingProviderError("invalid_response", "embeddings endpoint answered with invalid JSON");
  }
}

/** The error code under a fetch failure (ECONNREFUSED, ENOTFOUND), not its message: that can name the host. */
function networkCode(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === "string" && /^[A-Z_]+$/.test(cause.code) ? cause.code : "network error";
}

/** The endpoint's own error message (OpenAI's {error: {message}}, or plain text), short and without the key. */
function errorDetail(text: string, scrub: (text: string) => string): string {
  let detail = text;
  try {
    const json = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof json.error === "string" ? json.error : (json.error?.message ?? json.message);
    if (typeof message === "string") detail = message;
  } catch {
    // Not JSON: the text itself.
  }
  return scrub(detail.replace(/\s+/g, " ").trim()).slice(0, ERROR_DETAIL_CHARS);
}

/** Checks the response's shape and returns its vectors in input order, scaled to unit length. */
export function parseEmbeddings(json: unknown, count: number, dimensions?: number): Float32Array[] {
  const invalid = (why: string) => new EmbeddingProviderError("invalid_response", `embeddings endpoint response ${why}`);
  if (count === 0) return [];
  const data = (json as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw invalid("has no data list");
  if (data.length !== count) throw invalid(`has ${data.length} embeddings for ${count} inputs`);
  const out = new Array<Float32Array | undefined>(count);
  data.forEach((item: unknown, position) => {
    const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
    const at = index === undefined ? position : index;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 0 || at >= count || out[at]) throw invalid(`has a bad or repeated index at item ${position}`);
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === "number" && Number.isFinite(x))) {
      throw invalid(`item ${position} is not a list of numbers`);
    }
    if (dimensions !== undefined && embedding.length !== dimensions) throw invalid(`has ${embedding.length} dimensions, not ${dimensions}`);
    out[at] = unit(embedding as number[]);
  });
  const dims = out[0]!.length;
  if (out.some((v) => v!.length !== dims)) throw invalid("mixes vector lengths");
  return out as Float32Array[];
}

function unit(values: number[]): Float32Array {
  let norm = 0;
  for (const x of values) norm += x * x;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  return Float32Array.from(values, (x) => x * scale);
}

/** The operator's endpoint when one is configured, else null (the model trained on the repository embeds). */
export function externalEmbeddings(config: SemanticConfig | undefined, env: NodeJS.ProcessEnv): EmbeddingProvider | null {
  if (!config || config.provider === "builtin") return null;
  return createEmbeddingProvider(config, env, () => {
    throw new EmbeddingProviderError("config", "unreachable: the built-in provider is not external");
  });
}
