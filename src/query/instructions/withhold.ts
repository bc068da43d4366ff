import { holdsCredential } from "../../policy/secret-scan.js";
import type { InstructionFile, InstructionLikeMatch, InstructionRule } from "../../core/instructions.js";
import type { FileRow } from "../../store/store.js";

/**
 * Instruction files that may hold a secret are served without their text. Redaction runs on every answer, but it
 * only knows the formats it knows; a file the index marked secret-suspect may hold others. Each rule stays, with
 * its id, lines and category, so the agent knows something is there and where; what it forbids (actions, paths)
 * stays in force, since withholding must never widen what an agent may do; what it asks for (commands, required
 * actions) does not, since an agent cannot be asked to follow words it cannot see.
 */

/** The text every withheld rule carries instead of its own. */
export const WITHHELD_RULE_TEXT = "(text withheld: this instruction file was marked secret-suspect, and the read policy does not serve its text)";

/** What a withheld file's lint findings say instead of their message (which quotes the file). */
function withheldLintMessage(ruleId: string): string {
  return `${ruleId} finding (its message quotes the file's text, which is withheld)`;
}

/** The text a file's rules serve, headings included: what the secret prefilter looks at. */
function servedText(file: InstructionFile): string {
  return file.rules.map((r) => `${r.section ?? ""}\n${r.text}\n${r.claims.commands.map((c) => c.command).join("\n")}`).join("\n");
}

/**
 * Whether a loaded file's served text may hold a secret: its row was marked secret-suspect when indexed, or the
 * text served (the committed text) is not the text the row describes (edited, deleted or absent in the work tree)
 * and trips the secret scanner's prefilter, which errs towards withholding.
 */
export function mayHoldSecret(file: InstructionFile, row: Pick<FileRow, "isSecretSuspect" | "contentHash"> | null): boolean {
  if (file.loadedFrom === "not_loaded") return false;
  if (row?.isSecretSuspect) return true;
  return row?.contentHash !== file.contentHash && holdsCredential(servedText(file));
}

function withheldRule(r: InstructionRule): InstructionRule {
  const suspicious = r.suspicious?.map((m): InstructionLikeMatch => ({ ...m, excerpt: "" }));
  return {
    id: r.id,
    text: WITHHELD_RULE_TEXT,
    category: r.category,
    section: null,
    startLine: r.startLine,
    endLine: r.endLine,
    claims: { commands: [], forbidPaths: [...r.claims.forbidPaths], forbidActions: [...r.claims.forbidActions], requireActions: [] },
    essential: r.essential,
    ...(suspicious?.length ? { suspicious } : {}),
    withheld: "secret_suspect",
  };
}

/** The file as served without its text: rules keep id, lines, category and restrictions; lint keeps id and line. */
export function withholdText(file: InstructionFile): InstructionFile {
  return {
    ...file,
    rules: file.rules.map(withheldRule),
    lint: file.lint.map((l) => ({ ...l, message: withheldLintMessage(l.ruleId) })),
    withheld: "secret_suspect",
  };
}
