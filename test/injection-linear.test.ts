/**
 * The detector does linear work on any input. Proved without clocks: every pattern is checked structurally (no
 * unbounded repetition of a group that repeats without bound, nor of any character), and the characters each rule
 * scans are counted on adversarial inputs of size n and 2n. Timings live in `npm run bench:injection`.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { WorkCounter, detectInstructionLikeText, detectorPatterns } from "../src/policy/injection.js";
import { ADVERSARIAL_INPUTS } from "../bench/injection-adversarial.js";

/** Why a regular expression source is not linear: an unbounded repetition of a group that itself repeats without bound, or of any character. */
function linearityProblems(source: string): string[] {
  const problems: string[] = [];
  const frames: Array<{ unbounded: boolean }> = [{ unbounded: false }];
  let atom: { group: boolean; unbounded: boolean; any: boolean } | null = null;
  for (let i = 0; i < source.length; ) {
    const rest = source.slice(i);
    const c = source[i]!;
    const quantifier = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/.exec(rest);
    if (c === "\\") {
      const escape = /^\\(?:[pPk][{<][^}>]*[}>]|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z]|[\s\S])/.exec(rest)![0];
      atom = { group: false, unbounded: false, any: false };
      i += escape.length;
    } else if (c === "[") {
      let j = i + 1 + (source[i + 1] === "^" ? 1 : 0);
      if (source[j] === "]") j++;
      while (j < source.length && source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
      atom = { group: false, unbounded: false, any: source[i + 1] === "^" };
      i = j + 1;
    } else if (c === "(") {
      frames.push({ unbounded: false });
      atom = null;
      i += /^\((?:\?(?:[:=!]|<[=!]|<[A-Za-z_]\w*>))?/.exec(rest)![0].length;
    } else if (c === ")") {
      const frame = frames.pop()!;
      if (frame.unbounded) frames[frames.length - 1]!.unbounded = true;
      atom = { group: true, unbounded: frame.unbounded, any: false };
      i++;
    } else if (quantifier !== null && atom !== null) {
      if (/^(?:[*+]|\{\d+,\})/.test(quantifier[0])) {
        if (atom.group && atom.unbounded) problems.push(`nested unbounded repetition at ${i}`);
        if (atom.any) problems.push(`unbounded repetition of any character at ${i}`);
        frames[frames.length - 1]!.unbounded = true;
      }
      atom = null;
      i += quantifier[0].length;
    } else {
      atom = c === "|" ? null : { group: false, unbounded: false, any: c === "." };
      i++;
    }
  }
  return problems;
}

/** Characters scanned for inputs of size n and 2n: linear when doubling the input at most doubles the work (plus a constant), for the whole and for each rule. */
function superLinearity(measure: (n: number) => WorkCounter, n: number): string | null {
  const SLACK = 4096;
  const small = measure(n);
  const big = measure(2 * n);
  if (small.total === 0) return "no work counted";
  if (big.total > 2 * small.total + SLACK) return `total ${small.total} -> ${big.total}`;
  for (const [rule, work] of big.byRule) {
    const before = small.byRule.get(rule) ?? 0;
    if (work > 2 * before + SLACK) return `${rule} ${before} -> ${work}`;
  }
  return null;
}

describe("detectInstructionLikeText: linear work, counted (never timed; timings are in npm run bench:injection)", () => {
  it("the structural check finds nested and any-character unbounded repetition", () => {
    assert.deepEqual(linearityProblems(String.raw`\bfoo\s+(?:[\w-]+\s+){0,3}?bar[^\n]{0,300}baz`), []);
    assert.deepEqual(linearityProblems(String.raw`[(+*\]]\(\)+x{2,}`), []);
    assert.equal(linearityProblems(String.raw`(a+)+b`).length, 1);
    assert.equal(linearityProblems(String.raw`(?:\w+\s?)*x`).length, 1);
    assert.equal(linearityProblems(String.raw`(?:(?:ab){1,3}c+){0,3}`).length, 0);
    assert.equal(linearityProblems(String.raw`((?:a{1,3})*d){2,}`).length, 1);
    assert.equal(linearityProblems(String.raw`x.*y`).length, 1);
    assert.equal(linearityProblems(String.raw`x[^\n]+y`).length, 1);
  });

  it("every pattern the detector runs repeats only boundedly", () => {
    const all = detectorPatterns();
    assert.ok(all.length > 150, `${all.length} patterns`);
    const bad = all.flatMap(({ where, pattern }) => linearityProblems(pattern.source).map((p) => `${where}: ${p} in /${pattern.source.slice(0, 100)}/`));
    assert.deepEqual(bad, []);
  });

  it("the work check fails a pass that rescans the text for every line", () => {
    const rescanning = (n: number): WorkCounter => {
      const work = new WorkCounter();
      const text = "line\n".repeat(n);
      for (const _line of text.split("\n")) work.add("rescan", text.length);
      return work;
    };
    assert.match(superLinearity(rescanning, 2000) ?? "", /^total/);
  });

  for (const input of ADVERSARIAL_INPUTS) {
    it(`scans in linear work: ${input.name}`, () => {
      const measure = (n: number): WorkCounter => {
        const work = new WorkCounter();
        detectInstructionLikeText(input.build(n), work);
        return work;
      };
      assert.equal(superLinearity(measure, 3000), null);
    });
  }
});
