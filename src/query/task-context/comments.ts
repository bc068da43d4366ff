import type { Warning } from "../../core/evidence.js";
import type { RawTask } from "../../core/tasks.js";
import type { Clipper } from "./clipper.js";
import { MAX_AUTHOR_CHARS, MAX_COMMENT_CHARS } from "./limits.js";
import { suspiciousOf } from "./suspicious.js";
import type { CommentsOmitted, SuspiciousInstruction, TaskComment, TaskContext, TaskContextInput } from "./types.js";

/** The comments a task context shows, and what they add to the rest of it. */
export interface ShownComments {
  comments: TaskComment[];
  /** The raw comments shown (their links are extracted too). */
  shown: RawTask["comments"];
  commentStats: TaskContext["commentStats"];
  /** Instruction-like text found in the comments shown, in comment order. */
  suspicious: SuspiciousInstruction[];
  warnings: Warning[];
}

/**
 * Comments: the operator's policy first, then the caller's wish, then the limit. `allowed` says whether the operator's
 * read policy allows issue comments.
 */
export function commentsOf(allowed: boolean, raw: RawTask, input: TaskContextInput, clip: Clipper): ShownComments {
  const wanted = input.includeComments && input.maxComments > 0;
  let omitted: CommentsOmitted = null;
  if (!allowed) omitted = "disabled_by_policy";
  else if (!wanted) omitted = "not_requested";
  else if (raw.commentsUnavailable) omitted = "source_unavailable";
  const shownRaw = omitted === null ? raw.comments.slice(0, input.maxComments) : [];
  const suspicious: SuspiciousInstruction[] = [];
  const comments: TaskComment[] = shownRaw.map((c, i) => {
    const where = `comment:${i + 1}`;
    const body = clip.clip(c.body, MAX_COMMENT_CHARS);
    const found = suspiciousOf(c.body, where, clip);
    suspicious.push(...found);
    return {
      index: i + 1,
      author: c.author === null ? null : clip.str(c.author, MAX_AUTHOR_CHARS),
      createdAt: c.createdAt === null ? null : clip.str(c.createdAt, 40),
      body: body.text,
      truncated: body.truncated,
      trustLevel: "external_task_text",
      suspiciousInstructions: found,
    };
  });
  const total = raw.commentsTotal ?? (raw.source === "local" ? raw.comments.length : null);
  const warnings: Warning[] = [];
  if (raw.commentsUnavailable && allowed && wanted) {
    warnings.push({ code: "task_comments_unavailable", message: "the task source returned the task but not its comments; they are left out" });
  }
  return { comments, shown: shownRaw, commentStats: { total, returned: comments.length, omitted }, suspicious, warnings };
}
