/**
 * Text a reader of the rendered page never sees, addressed to an AI: HTML comments (closed or running to the end)
 * and Markdown link-reference comments. One hit per comment, on the line of the agent word.
 */
import type { InstructionLikeMatch } from "../../core/instructions.js";
import { addressedAt } from "./address.js";
import { regionMatch, type TextContext } from "./text.js";

const COMMENT_OPEN = "<!--";
const COMMENT_CLOSE = "-->";
/** Markdown's unrendered link-reference "comments": `[//]: # (…)`, `[comment]: <> "…"`. */
const MARKDOWN_COMMENT = /^[ \t]{0,3}\[[^\]\n]{1,40}\]:[ \t]{0,10}(?:#|<>)[ \t]{0,10}[("']/;

export function hiddenCommentMatches(ctx: TextContext): InstructionLikeMatch[] {
  const { text, work } = ctx;
  const out: InstructionLikeMatch[] = [];
  let from = text.indexOf(COMMENT_OPEN);
  while (from >= 0) {
    const bodyStart = from + COMMENT_OPEN.length;
    const close = text.indexOf(COMMENT_CLOSE, bodyStart);
    const bodyEnd = close < 0 ? text.length : close;
    work?.add("hidden-agent-comment", bodyEnd - from);
    const at = addressedAt(text.slice(bodyStart, bodyEnd), work);
    if (at >= 0) out.push(regionMatch(ctx, "hidden-agent-comment", from, close < 0 ? text.length : close + COMMENT_CLOSE.length, bodyStart + at));
    if (close < 0) break;
    from = text.indexOf(COMMENT_OPEN, close + COMMENT_CLOSE.length);
  }

  ctx.lines.forEach((line, i) => {
    work?.add("hidden-agent-comment", Math.min(line.length, 80));
    const m = MARKDOWN_COMMENT.exec(line);
    if (m === null) return;
    const lineStart = ctx.lineStarts[i] ?? 0;
    const at = addressedAt(line.slice(m[0].length), work);
    if (at >= 0) out.push(regionMatch(ctx, "hidden-agent-comment", lineStart, lineStart + line.length, lineStart + m[0].length + at));
  });
  return out;
}
