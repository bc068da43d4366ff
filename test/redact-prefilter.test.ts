/**
 * The redactor's pre-checks (`RedactOptions.prefilter` in src/policy/redact.ts) skip rules that cannot match a text:
 * a token format none of whose hints occurs, the keyed pass where no key holds a credential word or a provider's
 * name. They may save work and must never change a result, so every input here is redacted with and without them
 * and the two results compared: the samples and reference examples of every format, the benign look-alikes, this
 * repository's own sources, and keys that name a provider in each way a key can.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { redactText } from "../src/policy/redact.js";
import { SECRETISH_KEY } from "../src/policy/secret-assignments.js";
import { hintedFormats } from "../src/policy/secret-formats/hints.js";
import { TOKEN_FORMATS } from "../src/policy/secret-formats/index.js";
import { PROVIDER_KEYS } from "../src/policy/secret-providers.js";
import { BENIGN_LOOKALIKES, COVERAGE, contexts, referenceInputs } from "./fixtures/secret-formats/inputs.js";
import { ALNUM, SAMPLES, fake } from "./fixtures/secret-formats/samples.js";

/** Redacts `input` with and without the pre-checks and expects the same text and counts; returns the result. */
function expectSame(input: string, label: string): ReturnType<typeof redactText> {
  const fast = redactText(input);
  assert.deepEqual(fast, redactText(input, { prefilter: false }), `${label}: ${input.slice(0, 200)}`);
  return fast;
}

/** Pieces of `text` the size of a short answer, cut at fixed offsets. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

const readSource = (dir: string): string[] =>
  readdirSync(new URL(`../${dir}/`, import.meta.url))
    .filter((name) => name.endsWith(".ts"))
    .map((name) => readFileSync(new URL(`../${dir}/${name}`, import.meta.url), "utf8"));

describe("the pre-checks never change a result", () => {
  it("on every sample in every context", () => {
    for (const s of SAMPLES) for (const [where, input] of contexts(s)) expectSame(input, `${s.rule} in ${where}`);
  });

  it("on every reference example", () => {
    for (const e of [...COVERAGE.secretlint, ...COVERAGE.gitleaks]) {
      for (const input of referenceInputs(e)) expectSame(input.text, `${e.id ?? e.rule} ${input.where}`);
    }
  });

  it("on the benign look-alikes", () => {
    for (const [group, inputs] of Object.entries(BENIGN_LOOKALIKES)) for (const input of inputs) expectSame(input, group);
  });

  it("on ordinary text: this repository's redaction sources and README, whole, in pieces and as JSON", () => {
    const texts = [...readSource("src/policy"), ...readSource("src/policy/secret-formats"), readFileSync(new URL("../README.md", import.meta.url), "utf8")];
    let redacted = 0;
    for (const text of texts) {
      for (const input of [text, JSON.stringify({ content: text }), ...pieces(text, 2_000), ...text.split("\n")]) {
        if (expectSame(input, "source").redacted) redacted++;
      }
    }
    assert.ok(redacted > 0, "the sources hold secret-shaped text, so some redactions are compared too");
  });

  describe("keys that name a provider without any credential word", () => {
    // Without a credential word in the text, only the provider pre-check lets the keyed pass run.
    const value = (seed: string, length: number): string => {
      const v = fake(ALNUM, length, seed);
      assert.ok(!SECRETISH_KEY.test(v), "the fake value holds no credential word");
      return v;
    };
    const cases: Array<[string, string, string]> = [
      ["a provider's word as a whole key word", `DD_APP=${value("dd-env", 40)}\n`, "datadog-key"],
      ["a provider's word after a camel-case boundary", `const cfg = { ddApp: "${value("dd-camel", 40)}" };`, "datadog-key"],
      ["a provider's name split by separators", `NEW_RELIC_ACCOUNT=${value("nr-env", 40)}\n`, "new-relic-key"],
      ["a provider's name in a code assignment", `algolia_client = "${value("algolia-code", 32)}"`, "provider-keyed-secret"],
    ];
    for (const [name, input, reason] of cases) {
      it(name, () => {
        assert.ok(!SECRETISH_KEY.test(input), "the text holds no credential word");
        const r = expectSame(input, name);
        assert.deepEqual(r.redactions, [{ reason, count: 1 }], r.text);
      });
    }
    it("a provider's word inside another word is no key word, and changes nothing either way", () => {
      const r = expectSame(`const to = { address: "${value("dd-inside", 40)}" };`, "inside a word");
      assert.equal(r.redacted, false);
    });
  });
});

describe("format hints", () => {
  const HINTS = [...new Set(TOKEN_FORMATS.flatMap((f) => f.hints))];
  const expected = (text: string): number[] => TOKEN_FORMATS.map((f) => (f.hints.some((h) => text.includes(h)) ? 1 : 0));

  it("are lower-case, as the text they are looked for in", () => {
    assert.deepEqual(HINTS.filter((h) => h !== h.toLowerCase() || h === ""), []);
  });

  it("are all found, where they overlap too", () => {
    let overlaps = 0;
    for (const a of HINTS) {
      assert.deepEqual([...hintedFormats(`(${a})`)], expected(`(${a})`), a);
      for (const b of HINTS) {
        // `b` starting inside `a`: `a` then the rest of `b`.
        for (let k = 1; k < Math.min(a.length, b.length); k++) {
          if (!a.endsWith(b.slice(0, k))) continue;
          const text = `x${a}${b.slice(k)}x`;
          assert.deepEqual([...hintedFormats(text)], expected(text), text);
          overlaps++;
        }
      }
    }
    assert.ok(overlaps > 0, "some hints overlap");
  });
});

describe("provider names and words", () => {
  it("are lower-case letters and digits, as what is left of a key once its separators go", () => {
    const all = PROVIDER_KEYS.flatMap((p) => [...p.names, ...(p.words ?? [])]);
    assert.deepEqual(all.filter((n) => !/^[a-z0-9]+$/.test(n)), []);
  });
});
