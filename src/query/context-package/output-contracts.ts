import type { BlockForm, ContextPurpose } from "./types.js";

/** Part 032 §18: what the model's answer must look like, so that it can be validated. */
export interface OutputContract {
  name: string;
  format: "json" | "unified_diff" | "tool_calls_or_unified_diff" | "markdown";
  /** JSON answers: field → type. */
  schema: Record<string, string> | null;
  requirements: string[];
  forbidden: string[];
  /** When to stop instead of answering. */
  stopRules: string[];
}

export const OUTPUT_CONTRACTS: Record<ContextPurpose, OutputContract> = {
  planning: {
    name: "plan_json",
    format: "json",
    schema: { milestones: "{title: string, files: string[], verification: string}[]", risks: "string[]", openQuestions: "string[]", needsHuman: "boolean" },
    requirements: ["name the files each milestone touches, only within the allowed paths", "give each milestone a verification command from this package"],
    forbidden: ["editing files", "planning changes to forbidden paths"],
    stopRules: ["set needsHuman when the instructions conflict or the evidence is insufficient"],
  },
  editing: {
    name: "structured_patch",
    format: "tool_calls_or_unified_diff",
    schema: null,
    requirements: ["state the intended files and why before patching", "change only the allowed paths", "no unrelated refactoring", "then ask for the targeted verification command"],
    forbidden: ["modifying forbidden paths", "deleting, skipping or weakening tests", "commands that delete files or reach the network"],
    stopRules: ["stop and say so when the change needs a forbidden path, a public API change or evidence this package lacks"],
  },
  verification_repair: {
    name: "smallest_repair",
    format: "unified_diff",
    schema: null,
    requirements: ["address the failure summary", "edit only files already changed unless evidence proves one more is needed", "explain any change to a test"],
    forbidden: ["deleting or disabling tests", "touching forbidden paths", "widening the change"],
    stopRules: ["stop when the repair needs a public API change, deleted tests or a forbidden path", "stop when the same failure repeats"],
  },
  judging: {
    name: "judge_verdict_json",
    format: "json",
    schema: { accepted: "boolean", reasons: "string[]", policy_violations: "string[]", missing_evidence: "string[]", reviewer_summary: "string" },
    requirements: ["check the diff against the acceptance criteria and the policy check", "list every policy violation named in this package"],
    forbidden: ["accepting a diff with a policy violation", "judging on evidence not in this package"],
    stopRules: [],
  },
  pr_summary: {
    name: "pr_summary_markdown",
    format: "markdown",
    schema: { sections: "Summary, Changes, Behaviour preserved, Tests run, Risks, Reviewers" },
    requirements: ["describe only what the diff changes", "name the tests that prove it", "name the owners as reviewers"],
    forbidden: ["claiming tests ran that the package does not show"],
    stopRules: [],
  },
};

/** The contract as text, full and one-line: the budget may shrink it, never drop it. */
export function outputContractForms(c: OutputContract): { form: BlockForm; text: string }[] {
  const schema = c.schema ? Object.entries(c.schema).map(([k, v]) => `${k}: ${v}`).join("; ") : null;
  const full = [
    `Answer as ${c.name} (format: ${c.format}).`,
    ...(schema ? [`Schema: {${schema}}`] : []),
    ...c.requirements.map((r) => `- must: ${r}`),
    ...c.forbidden.map((r) => `- must not: ${r}`),
    ...c.stopRules.map((r) => `- stop: ${r}`),
  ].join("\n");
  const reduced = `Answer as ${c.name} (${c.format})${schema ? ` {${schema}}` : ""}.`;
  return [
    { form: "full", text: full },
    { form: "reduced", text: reduced },
  ];
}
