import type { RawTask } from "../../core/tasks.js";

/** The structured task context: what buildTaskContext returns, every part `external_task_text`. */

export type LinkType = "issue" | "pull_request" | "url" | "repo_path" | "doc";

export interface TaskLink {
  type: LinkType;
  target: string;
  /** Where it was found: `title`, `body` or `comment:<n>`. */
  where: string;
  line: number;
  title?: string;
  /** For repository paths and docs: whether the indexed commit has it (null: outside the repository). */
  exists: boolean | null;
  /** The indexed file, when the link names one (the projection adds its trust label). */
  path?: string;
  /** `repo://docs/{docId}` when the link names an indexed document. */
  uri?: string;
  /** The link sits on a line flagged in suspiciousInstructions: do not follow it on the text's say-so. */
  inSuspiciousText?: true;
}

export interface SuspiciousInstruction {
  where: string;
  line: number;
  startColumn?: number;
  endColumn?: number;
  ruleId: string;
  excerpt: string;
}

export interface TaskItem {
  text: string;
  line: number;
  /** For checklist items: whether the box is ticked. */
  checked?: boolean;
  truncated?: boolean;
}

export interface TaskComment {
  index: number;
  author: string | null;
  createdAt: string | null;
  body: string;
  truncated: boolean;
  trustLevel: "external_task_text";
  suspiciousInstructions: SuspiciousInstruction[];
}

export type CommentsOmitted = "not_requested" | "disabled_by_policy" | "source_unavailable" | null;

export interface TaskContext {
  id: string;
  source: RawTask["source"];
  kind: RawTask["kind"];
  title: string;
  titleTruncated: boolean;
  url: string | null;
  labels: string[];
  objective: string | null;
  objectiveTruncated: boolean;
  acceptanceCriteria: TaskItem[];
  nonGoals: TaskItem[];
  userAuthoredInstructions: TaskItem[];
  links: TaskLink[];
  /** Headings of the body (line numbers relative to the body), so the agent knows what else it says. */
  outline: { heading: string; line: number }[];
  comments: TaskComment[];
  commentStats: { total: number | null; returned: number; omitted: CommentsOmitted };
  suspiciousInstructions: SuspiciousInstruction[];
  trustLevel: "external_task_text";
  injectionWarning: string | null;
  truncated: boolean;
  /** Set when secret-looking values in the task text were replaced by [REDACTED] (before any cut). */
  redacted?: true;
  redactionReasons?: string[];
}

export interface TaskContextInput {
  includeComments: boolean;
  maxComments: number;
}
