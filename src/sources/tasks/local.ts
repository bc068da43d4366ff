import { open, realpath } from "node:fs/promises";
import { constants } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { commentOf, labelNames, str, TaskSourceUnavailable, type TaskProvider } from "./types.js";
import { TASK_ID_PATTERN, type RawTask, type TaskFetchOptions } from "../../core/tasks.js";

/** Largest snapshot file read; a task is prose, not a data dump. */
export const MAX_TASK_FILE_BYTES = 1024 * 1024;

const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function within(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/**
 * Reads `<id>.json` (what `gh issue view --json number,title,body,comments,labels,url` writes) or `<id>.md` (front
 * matter `id`, `title`, `labels`, `url`, `comments`; the rest is the body) from one folder. The id is checked
 * against `TASK_ID_PATTERN` and the resolved file must lie directly in the folder (symlinks included).
 */
export function localTaskProvider(dir: string, name: string): TaskProvider {
  return {
    name,
    async get(taskId: string, opts: TaskFetchOptions): Promise<RawTask | null> {
      if (!TASK_ID_PATTERN.test(taskId)) return null;
      const stem = taskId.startsWith("#") ? taskId.slice(1) : taskId;
      let base: string;
      try {
        base = await realpath(resolve(dir));
      } catch {
        throw new TaskSourceUnavailable(`${name} cannot be read (its folder is missing or unreadable)`);
      }
      for (const ext of [".json", ".md"] as const) {
        const text = await readInside(base, `${stem}${ext}`, name);
        if (text === null) continue;
        const task = ext === ".json" ? fromGhJson(text, stem, name) : fromMarkdown(text, stem, name, (await import("yaml")).parse);
        if (!opts.includeComments) task.comments = [];
        return task;
      }
      return null;
    },
  };
}

/** The file's text, or null when it does not exist; refuses anything that resolves outside `base` or is not a plain file. */
async function readInside(base: string, fileName: string, name: string): Promise<string | null> {
  const candidate = join(base, fileName);
  if (dirname(candidate) !== base) return null;
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    return null;
  }
  if (!within(base, real)) return null;
  let handle;
  try {
    handle = await open(real, constants.O_RDONLY);
  } catch {
    throw new TaskSourceUnavailable(`${name} has a task file it cannot read`);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return null;
    if (st.size > MAX_TASK_FILE_BYTES) throw new TaskSourceUnavailable(`${name} has a task file larger than ${MAX_TASK_FILE_BYTES} bytes`);
    return await handle.readFile({ encoding: "utf8" });
  } finally {
    await handle.close();
  }
}

function fromGhJson(text: string, stem: string, name: string): RawTask {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new TaskSourceUnavailable(`${name} holds a malformed JSON snapshot for this task`);
  }
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new TaskSourceUnavailable(`${name} holds a malformed JSON snapshot for this task`);
  const o = raw as Record<string, unknown>;
  const comments = Array.isArray(o.comments) ? o.comments.map(commentOf).filter((c) => c !== null) : [];
  const url = str(o.url) ?? str(o.html_url);
  return {
    id: typeof o.number === "number" ? `#${o.number}` : stem,
    title: str(o.title) ?? "",
    body: str(o.body) ?? "",
    labels: labelNames(o.labels),
    url,
    comments,
    commentsTotal: comments.length,
    commentsUnavailable: false,
    kind: url !== null && /\/pull\/\d+/.test(url) ? "pull_request" : "issue",
    source: "local",
  };
}

/** `parseYaml`: yaml's parse, imported by the caller when a Markdown task is read (startup, #19). */
function fromMarkdown(text: string, stem: string, name: string, parseYaml: (text: string) => unknown): RawTask {
  const m = FRONT_MATTER.exec(text);
  let meta: Record<string, unknown> = {};
  if (m) {
    let parsed: unknown;
    try {
      parsed = parseYaml(m[1] ?? "");
    } catch {
      throw new TaskSourceUnavailable(`${name} holds a task file whose front matter is not valid YAML`);
    }
    if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)) meta = parsed as Record<string, unknown>;
  }
  const body = m ? text.slice(m[0].length) : text;
  const comments = Array.isArray(meta.comments) ? meta.comments.map(commentOf).filter((c) => c !== null) : [];
  const id = str(meta.id) ?? (typeof meta.id === "number" ? String(meta.id) : null);
  return {
    id: id ?? stem,
    title: str(meta.title) ?? firstHeading(body) ?? "",
    body,
    labels: labelNames(meta.labels),
    url: str(meta.url),
    comments,
    commentsTotal: comments.length,
    commentsUnavailable: false,
    kind: "task",
    source: "local",
  };
}

function firstHeading(body: string): string | null {
  const h = /^#\s+(.+?)\s*#*\s*$/m.exec(body);
  return h?.[1] ?? null;
}
