/** Tasks and issues as sources hand them over: raw, external, untrusted text; the query layer structures it. */

/** A task id: a plain name (`TASK-1234`, `42`) or `#123`. No slashes, no leading dot: it can never name a path. */
export const TASK_ID_PATTERN = /^(?:#\d{1,10}|[A-Za-z0-9][\w.-]{0,99})$/;

export interface RawComment {
  author: string | null;
  body: string;
  createdAt: string | null;
}

export interface RawTask {
  id: string;
  title: string;
  body: string;
  labels: string[];
  url: string | null;
  /** What the source holds, oldest first (a source may return fewer than it has: see `commentsTotal`). */
  comments: RawComment[];
  /** How many comments the task has at the source, when the source says so. */
  commentsTotal: number | null;
  /** The source could read the task but not its comments. */
  commentsUnavailable: boolean;
  kind: "task" | "issue" | "pull_request";
  source: "local" | "github";
}

export interface TaskFetchOptions {
  /** Whether comments are wanted at all (the caller has already applied the read policy). */
  includeComments: boolean;
  maxComments: number;
}

export type TaskLookup =
  | { found: true; task: RawTask; provider: string; skipped: string[] }
  | { found: false; unavailable: string[] };

/** The operator's task sources as one reader, built once at start and injected: asked in the operator's order. */
export interface TaskSources {
  /** How many sources are configured (none: no task can be found). */
  readonly count: number;
  lookup(taskId: string, opts: TaskFetchOptions): Promise<TaskLookup>;
}
