import type { RawComment, RawTask, TaskFetchOptions } from "../../core/tasks.js";
/**
 * Task sources: adapters that read issue or task text from where the operator said it lives (a snapshot folder, the
 * GitHub REST API). They do the I/O and hand back raw text; structuring it and deciding what is shown is the query
 * layer's job (src/query/task-context/). Everything they return is external, untrusted text.
 */


export interface TaskProvider {
  /** Short, safe name for messages and warnings ("task source 2 (github)"): no paths, no hosts, no tokens. */
  readonly name: string;
  /** The task, or null when this source does not have it. Throws `TaskSourceUnavailable` when it cannot tell. */
  get(taskId: string, opts: TaskFetchOptions): Promise<RawTask | null>;
}

/** A source that could not answer (unreadable folder, network error, HTTP 5xx, refused credentials, oversized reply). */
export class TaskSourceUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaskSourceUnavailable";
  }
}

/** The string if `v` is one, else null. */
export function str(v: unknown): string | null {
  return typeof v === "string" ? v : null;
}

/** Label names from `["a"]`, `[{name: "a"}]` or a comma list. */
export function labelNames(v: unknown): string[] {
  if (typeof v === "string") return v.split(",").map((s) => s.trim()).filter((s) => s.length > 0);
  if (!Array.isArray(v)) return [];
  const out: string[] = [];
  for (const item of v) {
    const name = typeof item === "string" ? item : str((item as { name?: unknown } | null)?.name);
    if (name) out.push(name);
  }
  return out;
}

/** A comment in gh CLI shape (`author.login`, `createdAt`), REST shape (`user.login`, `created_at`) or front-matter shape (`author`). */
export function commentOf(v: unknown): RawComment | null {
  if (v === null || typeof v !== "object") return null;
  const o = v as Record<string, unknown>;
  const body = str(o.body);
  if (body === null) return null;
  const who = (x: unknown): string | null => (typeof x === "string" ? x : str((x as { login?: unknown } | null)?.login));
  return {
    author: who(o.author) ?? who(o.user),
    body,
    createdAt: str(o.createdAt) ?? str(o.created_at) ?? (o.createdAt instanceof Date ? o.createdAt.toISOString() : null),
  };
}
