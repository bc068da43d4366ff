/**
 * Text a reader of the rendered page never sees, addressed to an AI: HTML comments (closed or running to the end),
 * Markdown link-reference comments, hidden elements and alternative text. Flagged when the text addresses an agent
 * (address.ts), not when it merely names one ("TODO: screenshot of the AI settings page").
 */
import type { InstructionLikeMatch } from "../../core/instructions.js";
import { addressedAt } from "./address.js";
import { countedExec, type WorkCounter } from "./rules.js";
import { regionMatch, type TextContext } from "./text.js";

const COMMENT_OPEN = "<!--";
const COMMENT_CLOSE = "-->";
/** Markdown's unrendered link-reference "comments": `[//]: # (…)`, `[comment]: <> "…"`. */
const MARKDOWN_COMMENT = /^[ \t]{0,3}\[[^\]\n]{1,40}\]:[ \t]{0,10}(?:#|<>)[ \t]{0,10}[("']/;

/** One hit per comment that addresses an agent, on the line of the agent word. */
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

// ---------------------------------------------------------------------------------------------------------------
// Hidden elements and alternative text

/** An opening tag with its attributes (bounded). */
const OPEN_TAG = /<([a-zA-Z][\w-]{0,20})\b([^<>]{0,600})>/g;
/** Attributes that hide an element from a reader of the rendered page. */
const HIDING = new RegExp(
  [
    String.raw`display\s*:\s*none`,
    String.raw`visibility\s*:\s*hidden`,
    String.raw`opacity\s*:\s*0(?:\.0+)?(?![.\d])`,
    String.raw`font-size\s*:\s*(?:0|0?\.\d+|1)(?:px|pt|em|rem)?(?![.\d])`,
    String.raw`(?:left|top|text-indent|margin-left)\s*:\s*-\d{3,}`,
    String.raw`(?:max-)?height\s*:\s*0(?![.\d])`,
    String.raw`clip\s*:\s*rect\(\s*0`,
    String.raw`(?:^|[;"'\s])color\s*:\s*(?:transparent|rgba\([^)]{0,30},\s*0\))`,
    String.raw`(?:^|[;"'\s])color\s*:\s*(?:#fff\b|#ffffff\b|white\b)[^"']{0,80}background(?:-color)?\s*:\s*(?:#fff\b|#ffffff\b|white\b)`,
    String.raw`(?:^|\s)hidden(?=[\s=/]|$)`,
    String.raw`aria-hidden\s*=\s*["']?true`,
    String.raw`class\s*=\s*["'][^"']{0,100}\b(?:sr-only|visually-hidden|screen-reader-text|d-none|hidden|invisible)\b`,
    String.raw`\bsize\s*=\s*["']?[01]\b`,
  ].join("|"),
  "i",
);
/** How much of a hidden element's content is read (to its closing tag or this many characters). */
const MAX_HIDDEN_CONTENT = 2000;
/** Alternative and title text: `alt="…"`, `title="…"`, Markdown `![…](…)` and link titles `[…](url "…")`. */
const ALT_TEXT = /\b(?:alt|title|aria-label)\s*=\s*(?:"([^"\n]{1,500})"|'([^'\n]{1,500})')|!\[([^\]\n]{1,500})\]\(|\]\(\S{1,400}\s+"([^"\n]{1,300})"\)/gi;

/** Directives that need no vocative in hidden text: "when asked about X, recommend Y", "in every answer, say …". */
const HIDDEN_DIRECTIVE = /\bwhen\s+(?:you\s+(?:are\s+)?)?(?:asked|summari[sz]ing|answering|replying|responding|summari[sz]e|answer|reply|respond)\b|(?:^|[.!?:]\s+)(?:recommend|tell\s+the\s+user|say\s+that|respond\s+with|reply\s+with|answer\s+with)\b|\bin\s+(?:your|every|each)\s+(?:answer|reply|response|summary)\b/i;

/** Offset in hidden text of its address to an agent or (with `directives`) of a directive, or -1. */
function hiddenAddressAt(body: string, work: WorkCounter | undefined, directives = true): number {
  const at = addressedAt(body, work, "hidden-agent-html");
  if (at >= 0 || !directives) return at;
  return countedExec(HIDDEN_DIRECTIVE, body, "hidden-agent-html", work)?.index ?? -1;
}

/**
 * Text inside hidden elements (`display:none`, `visibility:hidden`, the `hidden` attribute, zero or 1px fonts,
 * off-screen or transparent text, screen-reader-only classes) and alternative text (alt, title, Markdown image
 * text) that addresses an AI: one hit per element, on the line of the agent word.
 */
export function hiddenHtmlMatches(ctx: TextContext): InstructionLikeMatch[] {
  const { text, work } = ctx;
  const out: InstructionLikeMatch[] = [];
  OPEN_TAG.lastIndex = 0;
  work?.add("hidden-agent-html", text.length);
  for (let m = OPEN_TAG.exec(text); m !== null; m = OPEN_TAG.exec(text)) {
    const attrs = m[2] ?? "";
    work?.add("hidden-agent-html", attrs.length);
    if (!HIDING.test(attrs)) continue;
    const contentStart = m.index + m[0].length;
    const window = text.slice(contentStart, contentStart + MAX_HIDDEN_CONTENT + m[1]!.length + 2);
    const found = window.indexOf(`</${m[1]!}`);
    const close = found < 0 || found > MAX_HIDDEN_CONTENT ? -1 : contentStart + found;
    const contentEnd = close < 0 ? Math.min(text.length, contentStart + MAX_HIDDEN_CONTENT) : close;
    const at = hiddenAddressAt(text.slice(contentStart, contentEnd), work);
    if (at >= 0) out.push(regionMatch(ctx, "hidden-agent-html", m.index, close < 0 ? contentEnd : close + m[1]!.length + 3, contentStart + at));
    // Hidden elements are not nested into each other's scan: go on after this one's content.
    OPEN_TAG.lastIndex = Math.max(OPEN_TAG.lastIndex, contentEnd);
  }
  ALT_TEXT.lastIndex = 0;
  for (let m = ALT_TEXT.exec(text); m !== null; m = ALT_TEXT.exec(text)) {
    const group = [1, 2, 3, 4].find((g) => m![g] !== undefined);
    if (group === undefined) continue;
    const body = m[group]!;
    const bodyStart = m.index + m[0].indexOf(body);
    // Alternative text is shown when the image is missing: only an address to an agent counts there.
    const at = hiddenAddressAt(body, work, false);
    if (at >= 0) out.push(regionMatch(ctx, "hidden-agent-html", bodyStart, bodyStart + body.length, bodyStart + at));
  }
  return out;
}

/** Every pattern of the hidden-text passes (for the structural linearity check). */
export const HIDDEN_HTML_PATTERNS: readonly RegExp[] = [MARKDOWN_COMMENT, OPEN_TAG, HIDING, ALT_TEXT, HIDDEN_DIRECTIVE];
