/**
 * Adversarial inputs for the injection detector: long runs that would make a backtracking pattern or a rescanning
 * pass blow up. Each takes a size `n` (repetitions), so the same input can be built at n and 2n.
 * test/injection.test.ts proves linear behaviour on them by counting characters scanned (never by timing);
 * `npm run bench:injection` times them at full size.
 */
export interface AdversarialInput {
  name: string;
  build: (n: number) => string;
  /** Repetitions for the timed run in the bench. */
  full: number;
}

const b64Run = "QUFB"; // base64 of "AAA": a long run of the base64 alphabet that decodes to no sentence

export const ADVERSARIAL_INPUTS: readonly AdversarialInput[] = [
  { name: "ignore ×n", build: (n) => "ignore ".repeat(n), full: 50_000 },
  { name: "curl a a a …", build: (n) => `curl ${"a ".repeat(n)}`, full: 100_000 },
  { name: "git push ×n", build: (n) => "git push ".repeat(n), full: 30_000 },
  { name: "<!-- ×n", build: (n) => "<!-- ".repeat(n), full: 50_000 },
  { name: "send secrets ×n", build: (n) => "send secrets ".repeat(n), full: 20_000 },
  { name: "line\\n ×n", build: (n) => "line\n".repeat(n), full: 100_000 },
  { name: "IMPORTANT: ×n", build: (n) => "IMPORTANT: ".repeat(n), full: 30_000 },
  { name: "zero-width ×n", build: (n) => "\u200b".repeat(n), full: 200_000 },
  { name: "a + zero-width ×n", build: (n) => "a\u200b".repeat(n), full: 100_000 },
  { name: "tag characters ×n", build: (n) => "\u{E0041}".repeat(n), full: 100_000 },
  { name: "black flags ×n", build: (n) => "\u{1F3F4}".repeat(n), full: 50_000 },
  { name: "flag + tags ×n", build: (n) => `\u{1F3F4}${"\u{E0061}".repeat(n)}`, full: 100_000 },
  { name: "bidi override ×n", build: (n) => "\u202e".repeat(n), full: 100_000 },
  { name: "<!-- AI agents reading ×n", build: (n) => "<!-- AI agents reading ".repeat(n), full: 20_000 },
  { name: "<!-- note to the ×n", build: (n) => "<!-- note to the ".repeat(n), full: 20_000 },
  { name: "[//]: # (agent agent ×n", build: (n) => "[//]: # (agent agent \n".repeat(n), full: 20_000 },
  { name: "treat ×n", build: (n) => "treat ".repeat(n), full: 50_000 },
  { name: "forget what ×n", build: (n) => "forget what ".repeat(n), full: 40_000 },
  { name: "AI agents installing ×n", build: (n) => "AI agents installing ".repeat(n), full: 20_000 },
  { name: ". + spaces", build: (n) => `. ${" ".repeat(n)}`, full: 100_000 },
  { name: "ATTENTION AI ×n", build: (n) => "ATTENTION AI ".repeat(n), full: 30_000 },
  { name: "${{ secrets. ×n", build: (n) => "${{ secrets.".repeat(n), full: 30_000 },
  { name: "read .env ×n", build: (n) => "read .env ".repeat(n), full: 30_000 },
  // New passes: letter-spacing, confusables, other languages, hidden HTML, links and images, encoded payloads.
  { name: "letter-spaced a b c …", build: (n) => "a ".repeat(n), full: 100_000 },
  { name: "letter-spaced, double gaps", build: (n) => "a  ".repeat(n), full: 100_000 },
  { name: "Cyrillic homoglyphs ×n", build: (n) => "іgnоrе ".repeat(n), full: 30_000 },
  { name: "math letters ×n", build: (n) => "\u{1D408}\u{1D420} ".repeat(n), full: 30_000 },
  { name: "ignorez toutes les ×n", build: (n) => "ignorez toutes les ".repeat(n), full: 20_000 },
  { name: "忽略之前 ×n", build: (n) => "忽略之前".repeat(n), full: 50_000 },
  { name: "<p hidden> ×n", build: (n) => "<p hidden>".repeat(n), full: 30_000 },
  { name: "<div style=display:none> AI ×n", build: (n) => '<div style="display:none">AI '.repeat(n), full: 20_000 },
  { name: 'alt="… ×n', build: (n) => 'alt="agent '.repeat(n), full: 30_000 },
  { name: "![](https://x/? ×n", build: (n) => "![](https://x.example/?a=".repeat(n), full: 20_000 },
  { name: "https:// + slashes", build: (n) => `![](https://x.example${"/".repeat(n)})`, full: 100_000 },
  { name: "open https://…?q= ×n", build: (n) => "open https://x.example/?q=".repeat(n), full: 20_000 },
  { name: "base64 run", build: (n) => b64Run.repeat(n), full: 100_000 },
  { name: "base64 words ×n", build: (n) => `${b64Run.repeat(8)} `.repeat(n), full: 10_000 },
  { name: "hex run", build: (n) => "4a".repeat(n), full: 100_000 },
  { name: "\\x escapes ×n", build: (n) => "\\x41".repeat(n), full: 50_000 },
  { name: "rot13 hint + lines", build: (n) => `rot13\n${"uryyb jbeyq sbb\n".repeat(n)}`, full: 30_000 },
  { name: "[[SYSTEM ×n", build: (n) => "[[SYSTEM ".repeat(n), full: 30_000 },
  { name: "disable the ×n", build: (n) => "disable the ".repeat(n), full: 30_000 },
  { name: "print GITHUB_TOKEN ×n", build: (n) => "print GITHUB_TOKEN ".repeat(n), full: 20_000 },
  { name: "decode and ×n", build: (n) => "decode and ".repeat(n), full: 30_000 },
];
