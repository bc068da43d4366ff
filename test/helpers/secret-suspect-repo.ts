import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { git } from "./fixture.js";
import type { BuiltRepo } from "./fixture.js";

/**
 * A repository whose secret-holding files the indexer marks secret-suspect (each holds a GitLab token, which
 * the index-time credential scan reports) and which also hold a made-up vendor token, `VENDOR_TOKEN`, in a format no redactor
 * knows: only the secret-suspect rule can keep it out of an answer. It sits where each tool reaches text: instruction
 * rules and commands, a document's headings and body, a function's signature, a call site, a manifest script.
 */
export const GITLAB_TOKEN = "glpat-Zq8Xw3Rt6Yp1Lk4Jh7Gf";
export const VENDOR_TOKEN = "zzsecret_Qm7vX2pL9kR4tW8yN3cB6dF1";

/** Distinctive pieces of both: a cut snippet must not leak half of one either. */
export const SECRET_FRAGMENTS = [GITLAB_TOKEN, VENDOR_TOKEN].flatMap((s) => [s, s.slice(0, 14), s.slice(-14)]);

/** Every file, by path; the secret-suspect ones are listed in SECRET_SUSPECT_PATHS. */
export const SECRET_REPO_FILES: Record<string, string> = {
  "README.md": "# Billing service\n\nCharges customers and sends invoices. See docs/deploy.md.\n",
  "AGENTS.md": [
    "# Agent guide",
    "",
    "- Run `npm test` before every commit.",
    "- Do not push to main; open a pull request.",
    `- The mirror uses the CI token ${GITLAB_TOKEN} for pushes.`,
    `- Smoke runs use the vendor account ${VENDOR_TOKEN} on staging.`,
    "",
    "## Build",
    "",
    "```sh",
    `npm run build -- --account ${VENDOR_TOKEN}`,
    "```",
    "",
  ].join("\n"),
  "services/api/CLAUDE.md": [`# API (vendor ${VENDOR_TOKEN})`, "", `- Deploy with the vendor account ${VENDOR_TOKEN}.`, `- Mirror token: ${GITLAB_TOKEN}.`, "- Do not edit generated clients.", ""].join("\n"),
  "services/api/handler.ts": 'export function handle(path: string): string {\n  return path.toUpperCase();\n}\n',
  "docs/deploy.md": [
    `# Deploy runbook for ${VENDOR_TOKEN}`,
    "",
    `The mirror token is ${GITLAB_TOKEN}.`,
    "",
    `## Vendor account ${VENDOR_TOKEN}`,
    "",
    `Log in with ${VENDOR_TOKEN} before sendInvoice runs.`,
    "",
  ].join("\n"),
  "src/invoice.ts": "export function sendInvoice(account: string, amount: number): string {\n  return `${account}:${amount}`;\n}\n",
  "src/billing.ts": [
    'import { sendInvoice } from "./invoice";',
    "",
    `// Mirror token ${GITLAB_TOKEN}`,
    `export function chargeCustomer(account = "${VENDOR_TOKEN}"): string {`,
    `  return sendInvoice("${VENDOR_TOKEN}", 1);`,
    "}",
    "",
  ].join("\n"),
  "test/invoice.test.ts": 'import { sendInvoice } from "../src/invoice";\n\nif (sendInvoice("a", 1) !== "a:1") throw new Error("sendInvoice");\n',
  "package.json": `${JSON.stringify({ name: "billing", version: "1.0.0", scripts: { test: "node --test", deploy: `deploy --token ${GITLAB_TOKEN} --account ${VENDOR_TOKEN}` } }, null, 2)}\n`,
};

/** A task snapshot (`7.md`) that names the secret-suspect files: get_task_context links them, never quotes them. */
export const SECRET_REPO_TASK = [
  "---",
  "id: \"7\"",
  "title: Charge the vendor account",
  "---",
  "## Objective",
  "",
  "Change how `sendInvoice` is called from `src/billing.ts`; see [the runbook](docs/deploy.md) and `AGENTS.md`.",
  "",
].join("\n");

export const SECRET_SUSPECT_PATHS = ["AGENTS.md", "services/api/CLAUDE.md", "docs/deploy.md", "src/billing.ts", "package.json"];

/** The repository above, committed in a fresh git repository. */
export function buildSecretSuspectRepo(): BuiltRepo {
  const base = mkdtempSync(join(tmpdir(), "repoctx-secret-suspect-"));
  const root = join(base, "repo");
  for (const [path, text] of Object.entries(SECRET_REPO_FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["add", "-A"]);
  git(root, ["commit", "-q", "-m", "Billing service"]);
  const commit = git(root, ["rev-parse", "HEAD"]);
  return { base, root, commit, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}
