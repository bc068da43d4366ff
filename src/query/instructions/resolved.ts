import type { InstructionLikeMatch, InstructionAction, InstructionCategory, CommandPurpose } from "../../core/instructions.js";
import type { WithheldReason } from "../../core/evidence.js";
import type { AuthorityLevel, InstructionLayer, ResolverRule, RuleStatus } from "./layers.js";

/** The resolver's input and its answer: the layers with each rule's status, the effective set and the conflicts. */

/** Tool output handed in as context: evidence only, it never yields a rule. */
export interface EvidenceText {
  source: string;
  text: string;
}

export interface ResolverInput {
  targetPaths: string[];
  rules: ResolverRule[];
  /** Task contract paths outside which a change is out of scope. */
  allowedPaths?: string[];
  evidence?: EvidenceText[];
}

export interface RuleView extends Omit<ResolverRule, "layer"> {
  layer: InstructionLayer;
  authority: AuthorityLevel;
  status: RuleStatus;
  statusReason?: string;
  /** Untrusted text, wrapped so that a model reads it as a quotation. */
  quoted?: string;
}

export interface Conflict {
  type: "permission_conflict" | "requirement_conflict" | "instruction_conflict" | "command_conflict";
  resolution: "higher_authority" | "needs_human";
  /** The winning rule's layer (null when nobody wins: needs_human). */
  winner: { layer: InstructionLayer; ruleId: string } | null;
  loser: { layer: InstructionLayer; ruleId: string } | null;
  action?: InstructionAction;
  purpose?: CommandPurpose;
  reason: string;
  rules: { ruleId: string; layer: InstructionLayer; text: string; path?: string; startLine?: number }[];
}

export interface EffectiveCommand {
  purpose: CommandPurpose;
  command: string;
  cwd: string;
  ruleId: string;
  layer: InstructionLayer;
  path?: string;
  line?: number;
  appliesTo: string[];
}

export interface OverriddenCommand {
  command: string;
  purpose: CommandPurpose;
  ruleId: string;
  overriddenBy: string[];
  appliesTo: string[];
  reason: string;
}

export interface EffectiveInstructions {
  commands: Record<CommandPurpose, EffectiveCommand[]>;
  overriddenCommands: OverriddenCommand[];
  forbiddenPaths: { glob: string; ruleId: string; layer: InstructionLayer }[];
  forbiddenActions: { action: InstructionAction; ruleIds: string[] }[];
  requiredActions: { action: InstructionAction; ruleIds: string[] }[];
  /** Target paths a change may not touch, and the rule that says so. */
  forbiddenTargets: { path: string; ruleId: string; glob: string | null; reason: string }[];
  rules: { id: string; layer: InstructionLayer; category: InstructionCategory; text: string; scope: string; path?: string; startLine?: number; endLine?: number; withheld?: WithheldReason }[];
}

export interface ResolvedInstructions {
  outcome: "ok" | "needs_human";
  reason?: "instruction_conflict";
  targetPaths: string[];
  layers: { layer: InstructionLayer; authority: AuthorityLevel; rules: RuleView[] }[];
  effective: EffectiveInstructions;
  conflicts: Conflict[];
  /** Tool output handed in: quoted evidence, never rules. */
  toolOutput: { source: string; trustLevel: "tool_output"; authority: "EVIDENCE"; quoted: string; suspicious: InstructionLikeMatch[]; note: string }[];
  effectiveInstructionHash: string;
}
