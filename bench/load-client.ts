/**
 * The clients of `npm run bench:load`: real MCP clients (the SDK's `Client` over `StreamableHTTPClientTransport`),
 * one bearer token each, looping over the tool mix until the window closes, recording every call.
 */
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { kindName, type CallKind, type CallSpec } from "./load-workload.js";

const MAX_ERROR_KINDS = 20;
/** After a failed call a client waits this long, so a dead server does not turn the loop into a busy spin. */
const ERROR_BACKOFF_MS = 100;

export interface LoadClient {
  id: number;
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** initialize + notifications/initialized + tools/list. */
  connectMs: number;
  tools: Set<string>;
}

/** Latencies and outcomes of one phase (warm-up or measured). */
export class PhaseStats {
  readonly all: number[] = [];
  readonly byTool = new Map<string, number[]>();
  readonly byKind = new Map<string, number[]>();
  errors = 0;
  readonly errorsByTool = new Map<string, number>();
  /** Distinct error messages (first MAX_ERROR_KINDS), with counts. */
  readonly errorKinds = new Map<string, number>();
  /** Warning codes per tool in successful envelopes (not errors: e.g. ambiguous_symbol). */
  readonly warnings = new Map<string, Map<string, number>>();
  responseChars = 0;

  record(kind: CallKind, ms: number, result: unknown): void {
    this.push(kind, ms);
    const r = result as { isError?: boolean; structuredContent?: Record<string, unknown>; content?: { type: string; text?: string }[] };
    for (const c of r.content ?? []) if (c.type === "text" && c.text) this.responseChars += c.text.length;
    if (r.isError) {
      const error = (r.structuredContent?.data as { error?: { category?: string; message?: string } } | undefined)?.error;
      this.fail(kind.tool, `isError ${error?.category ?? "?"}: ${error?.message ?? JSON.stringify(r.content ?? r).slice(0, 200)}`);
      return;
    }
    const warnings = r.structuredContent?.warnings;
    if (Array.isArray(warnings)) {
      for (const w of warnings as { code?: string }[]) {
        const m = this.warnings.get(kind.tool) ?? new Map<string, number>();
        m.set(w.code ?? "?", (m.get(w.code ?? "?") ?? 0) + 1);
        this.warnings.set(kind.tool, m);
      }
    }
  }

  thrown(kind: CallKind, ms: number, err: unknown): void {
    this.push(kind, ms);
    this.fail(kind.tool, describeError(err));
  }

  private push(kind: CallKind, ms: number): void {
    this.all.push(ms);
    const t = this.byTool.get(kind.tool) ?? [];
    t.push(ms);
    this.byTool.set(kind.tool, t);
    const name = kindName(kind);
    const k = this.byKind.get(name) ?? [];
    k.push(ms);
    this.byKind.set(name, k);
  }

  fail(tool: string, message: string): void {
    this.errors++;
    this.errorsByTool.set(tool, (this.errorsByTool.get(tool) ?? 0) + 1);
    const key = `${tool}: ${message.replace(/\s+/g, " ").slice(0, 300)}`;
    if (this.errorKinds.has(key) || this.errorKinds.size < MAX_ERROR_KINDS) this.errorKinds.set(key, (this.errorKinds.get(key) ?? 0) + 1);
  }
}

/** An exception as one line: its class, HTTP status or JSON-RPC code when there is one, and the message. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return `thrown ${String(err)}`;
  const code = (err as { code?: unknown }).code;
  const cause = (err as { cause?: unknown }).cause;
  const causeText = cause instanceof Error ? ` (cause: ${cause.message})` : "";
  return `${err.name}${code !== undefined ? ` [${String(code)}]` : ""}: ${err.message}${causeText}`;
}

export interface ConnectOptions {
  url: string;
  token: string;
  id: number;
  timeoutMs: number;
  /** Errors the transport reports outside a call (the standalone SSE stream, a failed reconnect). */
  onAsyncError: (id: number, err: Error) => void;
}

export async function connectClient(o: ConnectOptions): Promise<LoadClient> {
  const transport = new StreamableHTTPClientTransport(new URL(o.url), {
    requestInit: { headers: { Authorization: `Bearer ${o.token}` } },
    // A stream the server closes is not retried for long: the bench is bounded.
    reconnectionOptions: { initialReconnectionDelay: 1000, maxReconnectionDelay: 5000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
  });
  const client = new Client({ name: `repoctx-load-${o.id}`, version: "0" });
  const t0 = performance.now();
  try {
    await client.connect(transport, { timeout: o.timeoutMs });
    const listed = await client.listTools(undefined, { timeout: o.timeoutMs });
    client.onerror = (err) => o.onAsyncError(o.id, err);
    return { id: o.id, client, transport, connectMs: performance.now() - t0, tools: new Set(listed.tools.map((t) => t.name)) };
  } catch (err) {
    await client.close().catch(() => {});
    throw err;
  }
}

/** Ends the session (DELETE) and closes the transport; the error, if any, as a line. */
export async function closeClient(c: LoadClient, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`close timed out after ${timeoutMs} ms`), timeoutMs)));
  const close = (async (): Promise<string | null> => {
    c.client.onerror = () => {};
    let problem: string | null = null;
    try {
      await c.transport.terminateSession();
    } catch (err) {
      problem = `terminateSession: ${describeError(err)}`;
    }
    await c.client.close().catch(() => {});
    return problem;
  })();
  try {
    return await Promise.race([close, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface Window {
  /** performance.now() when the measured window opens and closes; calls started before it are warm-up. */
  start: number;
  end: number;
}

/** One client's loop: draw a call, send it, record it, until the window closes (the call in flight finishes). */
export async function runClient(
  c: LoadClient,
  next: () => { kind: CallKind; spec: CallSpec },
  window: Window,
  warm: PhaseStats,
  measured: PhaseStats,
  callTimeoutMs: number,
): Promise<void> {
  for (;;) {
    const t0 = performance.now();
    if (t0 >= window.end) return;
    const { kind, spec } = next();
    const stats = t0 >= window.start ? measured : warm;
    try {
      const result = await c.client.callTool({ name: spec.tool, arguments: spec.args }, undefined, { timeout: callTimeoutMs });
      stats.record(kind, performance.now() - t0, result);
    } catch (err) {
      stats.thrown(kind, performance.now() - t0, err);
      await new Promise((resolve) => setTimeout(resolve, ERROR_BACKOFF_MS));
    }
  }
}

/** Calls every variant of every kind once; returns the kinds with only the variants that succeeded, and the failures. */
export async function probeVariants(
  c: LoadClient,
  kinds: readonly CallKind[],
  callTimeoutMs: number,
  concurrency: number,
): Promise<{ kinds: CallKind[]; dropped: { kind: string; args: string; why: string }[]; ms: Map<string, number[]> }> {
  const dropped: { kind: string; args: string; why: string }[] = [];
  const ms = new Map<string, number[]>();
  const jobs: { kind: CallKind; args: Record<string, unknown>; ok?: boolean }[] = [];
  for (const kind of kinds) {
    if (!c.tools.has(kind.tool)) {
      dropped.push({ kind: kindName(kind), args: "(all)", why: "the server does not list this tool" });
      continue;
    }
    for (const args of kind.variants) jobs.push({ kind, args });
  }
  let nextJob = 0;
  const worker = async (): Promise<void> => {
    while (nextJob < jobs.length) {
      const job = jobs[nextJob++]!;
      const t0 = performance.now();
      try {
        const r = (await c.client.callTool({ name: job.kind.tool, arguments: job.args }, undefined, { timeout: callTimeoutMs })) as {
          isError?: boolean;
          structuredContent?: { data?: { error?: { category?: string; message?: string } } };
        };
        const name = kindName(job.kind);
        ms.set(name, [...(ms.get(name) ?? []), performance.now() - t0]);
        if (r.isError) {
          const e = r.structuredContent?.data?.error;
          dropped.push({ kind: name, args: JSON.stringify(job.args).slice(0, 160), why: `${e?.category ?? "?"}: ${e?.message ?? "?"}` });
        } else {
          job.ok = true;
        }
      } catch (err) {
        dropped.push({ kind: kindName(job.kind), args: JSON.stringify(job.args).slice(0, 160), why: describeError(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const kept = kinds
    .map((kind) => ({ ...kind, variants: jobs.filter((j) => j.kind === kind && j.ok).map((j) => j.args) }))
    .filter((k) => k.variants.length > 0);
  return { kinds: kept, dropped, ms };
}
