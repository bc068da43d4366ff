import type { CommandPurpose, InstructionClaims } from "../../core/instructions.js";
import { commandConflicts } from "./conflicts.js";
import { LAYER_INDEX, byString, depthOf, inScope, type ResolverRule } from "./layers.js";
import type { Conflict, EffectiveCommand, OverriddenCommand } from "./resolved.js";

/** A command one rule in effect gives for a target and purpose. */
interface CommandCandidate {
  rule: ResolverRule;
  cmd: InstructionClaims["commands"][number];
}

const PURPOSES = ["build", "test", "lint", "other"] as const;

/** The same command from the same rule, whatever target it applies to. */
function cmdKey(ruleId: string, command: string): string {
  return `${ruleId}\0${command}`;
}

/** Commands for `purpose` that rules in effect give for target `t` (stale commands and those aimed elsewhere left out). */
function commandCandidates(applicable: readonly ResolverRule[], inEffect: (r: ResolverRule) => boolean, t: string, purpose: CommandPurpose): CommandCandidate[] {
  const candidates: CommandCandidate[] = [];
  for (const r of applicable) {
    if (!inEffect(r) || !inScope(r.scope, t)) continue;
    for (const c of r.claims.commands) {
      if (c.purpose !== purpose || c.stale) continue;
      if (c.appliesTo.length > 0 && !c.appliesTo.some((a) => inScope(a, t))) continue;
      candidates.push({ rule: r, cmd: c });
    }
  }
  return candidates;
}

/** Records a command in effect for target `t`, merging targets of the same rule and command. */
function addEffective(byKey: Map<string, EffectiveCommand>, c: CommandCandidate, purpose: CommandPurpose, t: string): void {
  const key = cmdKey(c.rule.id, c.cmd.command);
  const e = byKey.get(key) ?? {
    purpose,
    command: c.cmd.command,
    cwd: c.cmd.cwd,
    ruleId: c.rule.id,
    layer: c.rule.layer,
    ...(c.rule.path ? { path: c.rule.path, line: c.rule.startLine } : {}),
    appliesTo: [],
  };
  if (!e.appliesTo.includes(t)) e.appliesTo.push(t);
  byKey.set(key, e);
}

/** Records a command a more specific file overrides for target `t`, with the rules that override it. */
function addOverridden(byKey: Map<string, OverriddenCommand>, l: CommandCandidate, winners: readonly CommandCandidate[], purpose: CommandPurpose, t: string): void {
  const key = cmdKey(l.rule.id, l.cmd.command);
  const by = [...new Set(winners.map((w) => w.rule.id))];
  const o = byKey.get(key) ?? {
    command: l.cmd.command,
    purpose,
    ruleId: l.rule.id,
    overriddenBy: [],
    appliesTo: [],
    reason: `a more specific instruction file (${[...new Set(winners.map((w) => w.rule.path ?? w.rule.id))].join(", ")}) sets the ${purpose} command for its folder`,
  };
  for (const b of by) if (!o.overriddenBy.includes(b)) o.overriddenBy.push(b);
  if (!o.appliesTo.includes(t)) o.appliesTo.push(t);
  byKey.set(key, o);
}

/**
 * Commands: per target and purpose, the most specific scope wins; contract checks always stand. Returns the
 * commands in effect (by layer, then rule and command), those overridden, and the command conflicts found.
 */
export function resolveCommands(
  targets: readonly string[],
  applicable: readonly ResolverRule[],
  inEffect: (r: ResolverRule) => boolean,
): { commands: Record<CommandPurpose, EffectiveCommand[]>; overriddenCommands: OverriddenCommand[]; conflicts: Conflict[] } {
  const conflicts: Conflict[] = [];
  const effectiveByKey = new Map<string, EffectiveCommand>();
  const overriddenByKey = new Map<string, OverriddenCommand>();
  const commandConflictSeen = new Set<string>();
  for (const t of targets) {
    for (const purpose of PURPOSES) {
      const candidates = commandCandidates(applicable, inEffect, t, purpose);
      const fromFiles = candidates.filter((c) => c.rule.source === "repository_file");
      const others = candidates.filter((c) => c.rule.source !== "repository_file");
      const deepest = Math.max(-1, ...fromFiles.map((c) => depthOf(c.rule.scope)));
      const winners = fromFiles.filter((c) => depthOf(c.rule.scope) === deepest);
      const losers = fromFiles.filter((c) => depthOf(c.rule.scope) < deepest);
      conflicts.push(...commandConflicts(winners, purpose, commandConflictSeen));
      for (const c of [...others, ...winners]) addEffective(effectiveByKey, c, purpose, t);
      for (const l of losers) addOverridden(overriddenByKey, l, winners, purpose, t);
    }
  }
  const commands: Record<CommandPurpose, EffectiveCommand[]> = { build: [], test: [], lint: [], other: [] };
  for (const e of effectiveByKey.values()) commands[e.purpose].push(e);
  for (const p of Object.keys(commands) as CommandPurpose[]) commands[p].sort((a, b) => (LAYER_INDEX.get(a.layer)! - LAYER_INDEX.get(b.layer)!) || byString<EffectiveCommand>((x) => `${x.ruleId}\0${x.command}`)(a, b));
  const overriddenCommands = [...overriddenByKey.values()].sort(byString((o) => `${o.ruleId}\0${o.command}`));
  return { commands, overriddenCommands, conflicts };
}
