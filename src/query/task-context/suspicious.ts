import { detectInstructionLikeText } from "../../policy/injection.js";
import { redactText } from "../../policy/redact.js";
import type { InstructionLikeMatch } from "../../core/instructions.js";
import type { Clipper } from "./clipper.js";
import { splitLines } from "./sections.js";
import type { SuspiciousInstruction } from "./types.js";

// Suspicious instructions

type Span = InstructionLikeMatch & { startColumn?: number; endColumn?: number };

/** Instruction-like passages in one text (the title, the body or a comment), each with a redacted, clipped excerpt. */
export function suspiciousOf(text: string, where: string, clip: Clipper): SuspiciousInstruction[] {
  const lines = splitLines(text);
  return detectInstructionLikeText(text).map((raw) => {
    const m = raw as Span;
    const line = lines[m.line - 1] ?? "";
    // The detector's excerpt may cut a secret in half, which redaction would then miss: such lines are re-excerpted from redacted text.
    const redactedLine = redactText(line);
    const excerpt = redactedLine.redacted ? clip.str(redactedLine.text.trim(), 160) : clip.str(m.excerpt, 160);
    return {
      where,
      line: m.line,
      ...(typeof m.startColumn === "number" ? { startColumn: m.startColumn } : {}),
      ...(typeof m.endColumn === "number" ? { endColumn: m.endColumn } : {}),
      ruleId: m.ruleId,
      excerpt,
    };
  });
}
