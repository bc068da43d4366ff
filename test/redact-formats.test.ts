import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { REDACTION_RULES, redactText } from "../src/policy/redact.js";
import { SCANNED_RULES } from "../src/policy/secret-scan.js";
import { BENIGN_LOOKALIKES, COVERAGE, contexts, entryName, referenceInputs } from "./fixtures/secret-formats/inputs.js";
import { SAMPLES } from "./fixtures/secret-formats/samples.js";

const REASON_OF = new Map(REDACTION_RULES.map((r) => [r.id, r.reason]));

/** Redacts `input` and checks: no secret left, one of `reasons` reported, line count kept, a second pass idle. */
function expectGone(input: string, secrets: readonly string[], reasons: readonly string[], label: string): void {
  const r = redactText(input);
  for (const s of secrets) assert.ok(!r.text.includes(s), `${label}: ${s} survived in ${r.text}`);
  const got = r.redactions.map((x) => x.reason);
  assert.ok(got.some((g) => reasons.includes(g)), `${label}: reasons ${JSON.stringify(got)}, want one of ${JSON.stringify(reasons)}`);
  assert.equal(r.text.split("\n").length, input.split("\n").length, `${label}: line count`);
  const again = redactText(r.text);
  assert.equal(again.text, r.text, `${label}: idempotent`);
  assert.equal(again.redacted, false, `${label}: a second pass reports nothing`);
}

describe("every known format is redacted (test/fixtures/secret-formats/samples.ts)", () => {
  it("every redaction rule has at least one sample", () => {
    const sampled = new Set(SAMPLES.map((s) => s.rule));
    assert.deepEqual(REDACTION_RULES.map((r) => r.id).filter((id) => !sampled.has(id)), []);
  });
  for (const s of SAMPLES) {
    it(`${s.rule}: ${s.secret.slice(0, 24)}…`, () => {
      assert.equal(REASON_OF.get(s.rule), s.reason, "the sample names its rule's reason");
      for (const [where, input] of contexts(s)) expectGone(input, [s.secret], [s.reason], `${s.rule} in ${where}`);
    });
  }
});

describe("coverage of the reference detectors (test/fixtures/secret-formats/coverage.json)", () => {
  it("lists the rules and messages of secretlint's recommended preset once, as recorded", () => {
    // The preset is a reference, not a dependency: its 25 rule packages and 40 messages, as of the recorded version.
    assert.equal(COVERAGE.references.secretlint.version, "12.3.1");
    const keys = COVERAGE.secretlint.map((e) => `${e.rule}/${e.message}`);
    assert.equal(new Set(keys).size, 40);
    assert.equal(new Set(COVERAGE.secretlint.map((e) => e.rule)).size, 25);
  });

  it("the index-time scan runs exactly the rules that cover a secretlint detector (what made a file suspect before)", () => {
    const needed = [...new Set(COVERAGE.secretlint.flatMap((e) => e.ours))].sort();
    assert.deepEqual([...SCANNED_RULES].sort(), needed);
  });

  it("lists every gitleaks default rule once", () => {
    const ids = COVERAGE.gitleaks.map((e) => e.id!);
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(ids.length, COVERAGE.references.gitleaks.rules);
    assert.match(COVERAGE.references.gitleaks.commit, /^[0-9a-f]{40}$/);
  });

  const entries = [...COVERAGE.secretlint, ...COVERAGE.gitleaks];
  it("maps each reference rule to our rules with examples, or says why it does not apply", () => {
    for (const e of entries) {
      const name = entryName(e);
      if (e.notApplicable !== undefined) {
        assert.deepEqual(e.ours, [], name);
        assert.ok(e.notApplicable.length > 20, name);
      } else {
        assert.ok(e.ours.length > 0 && (e.examples ?? []).length > 0, name);
        for (const o of e.ours) assert.ok(REASON_OF.has(o), `${name}: unknown rule ${o}`);
      }
    }
  });

  for (const e of entries.filter((x) => x.notApplicable === undefined)) {
    const name = entryName(e);
    it(`${name} → ${e.ours.join(", ")}`, () => {
      const reasons = e.ours.map((o) => REASON_OF.get(o)!);
      for (const input of referenceInputs(e)) expectGone(input.text, input.secrets, reasons, `${name} ${input.where}`);
    });
  }
});

describe("benign look-alikes stay", () => {
  for (const [group, inputs] of Object.entries(BENIGN_LOOKALIKES)) {
    it(group, () => {
      for (const input of inputs) {
        const r = redactText(input);
        assert.equal(r.text, input, `should stay: ${input}`);
        assert.deepEqual(r.redactions, [], input);
      }
    });
  }
});
