import type { InstructionAction, CommandPurpose } from "../../core/instructions.js";
import { byString, compareRank, type InstructionLayer, type ResolverRule, type RuleStatuses } from "./layers.js";
import type { Conflict } from "./resolved.js";

/**
 * Conflict detection: a rule requiring what another forbids (ranked by layer, or unresolvable at the same rank), and
 * instruction files at the same level naming different commands for the same purpose.
 */

/** A conflict's pointer to a rule: its layer and id. */
function ref(r: ResolverRule): { layer: InstructionLayer; ruleId: string } {
  return { layer: r.layer, ruleId: r.id };
}

/** A rule as a conflict cites it: id, layer, words and, for a file's rule, where it stands. */
function cite(r: ResolverRule): Conflict["rules"][number] {
  return { ruleId: r.id, layer: r.layer, text: r.text, ...(r.path ? { path: r.path } : {}), ...(r.startLine ? { startLine: r.startLine } : {}) };
}

/**
 * Forbid vs require, across and within layers. First the requirements a higher (or equal) rule forbids; then the
 * surviving requirements override lower rules that forbid them. Updates `status` and returns the conflicts found.
 */
export function actionConflicts(active: readonly ResolverRule[], overlap: (a: ResolverRule, b: ResolverRule) => boolean, status: RuleStatuses): Conflict[] {
  const conflicts: Conflict[] = [];
  const pairs: { forb: ResolverRule; req: ResolverRule; action: InstructionAction }[] = [];
  for (const req of active) {
    for (const action of req.claims.requireActions) {
      for (const forb of active) {
        if (forb !== req && forb.claims.forbidActions.includes(action) && overlap(forb, req)) pairs.push({ forb, req, action });
      }
    }
  }
  for (const { forb, req, action } of pairs) {
    const c = compareRank(forb, req);
    if (c < 0) {
      conflicts.push({
        type: "permission_conflict",
        resolution: "higher_authority",
        winner: ref(forb),
        loser: ref(req),
        action,
        reason: `${forb.layer} forbids ${action}; ${req.layer} may narrow it but not widen it, so ${req.id} is not in effect`,
        rules: [cite(forb), cite(req)],
      });
      status.set(req, { status: "excluded", reason: `conflicts with ${forb.id} (${forb.layer}), which forbids ${action}` });
    } else if (c === 0) {
      conflicts.push({
        type: "instruction_conflict",
        resolution: "needs_human",
        winner: null,
        loser: null,
        action,
        reason: `${forb.id} forbids ${action} and ${req.id} requires it, at the same level (${req.layer}): cannot be resolved automatically`,
        rules: [cite(forb), cite(req)],
      });
      status.set(forb, { status: "excluded", reason: "unresolved same-level conflict" });
      status.set(req, { status: "excluded", reason: "unresolved same-level conflict" });
    }
  }
  for (const { forb, req, action } of pairs) {
    if (compareRank(forb, req) <= 0 || status.get(req)!.status !== "in_effect") continue;
    conflicts.push({
      type: "requirement_conflict",
      resolution: "higher_authority",
      winner: ref(req),
      loser: ref(forb),
      action,
      reason: `${req.layer} requires ${action}; the lower ${forb.layer} rule ${forb.id} that forbids it is overridden`,
      rules: [cite(req), cite(forb)],
    });
    if (status.get(forb)!.status === "in_effect") status.set(forb, { status: "overridden", reason: `${req.id} (${req.layer}) requires ${action}` });
  }
  return conflicts;
}

/**
 * Two files at the same level that name disjoint commands for the same purpose: nobody can pick for the agent.
 * `winners` are the deepest files' commands for one target; `seen` keeps a pair of files from being reported twice.
 */
export function commandConflicts(winners: readonly { rule: ResolverRule; cmd: { command: string } }[], purpose: CommandPurpose, seen: Set<string>): Conflict[] {
  const conflicts: Conflict[] = [];
  const byFile = new Map<string, Set<string>>();
  for (const w of winners) {
    const set = byFile.get(w.rule.path ?? w.rule.id) ?? new Set<string>();
    set.add(w.cmd.command);
    byFile.set(w.rule.path ?? w.rule.id, set);
  }
  const fileSets = [...byFile.entries()].sort(byString(([p]) => p));
  for (let i = 0; i < fileSets.length; i++) {
    for (let j = i + 1; j < fileSets.length; j++) {
      const [pa, a] = fileSets[i]!;
      const [pb, b] = fileSets[j]!;
      if ([...a].some((x) => b.has(x))) continue;
      const key = `${pa}\0${pb}\0${purpose}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const involved = winners.filter((w) => (w.rule.path ?? w.rule.id) === pa || (w.rule.path ?? w.rule.id) === pb);
      conflicts.push({
        type: "command_conflict",
        resolution: "needs_human",
        winner: null,
        loser: null,
        purpose,
        reason: `${pa} and ${pb} give different ${purpose} commands for the same scope (${[...a].join(" | ")} vs ${[...b].join(" | ")}): cannot be resolved automatically`,
        rules: [...new Map(involved.map((w) => [w.rule.id, cite(w.rule)])).values()],
      });
    }
  }
  return conflicts;
}

/** Conflicts in a stable order: by type, then the rules involved, then the action or purpose. */
export function sortConflicts(conflicts: Conflict[]): void {
  conflicts.sort(byString((c) => `${c.type}\0${c.rules.map((r) => r.ruleId).join("\0")}\0${c.action ?? c.purpose ?? ""}`));
}
