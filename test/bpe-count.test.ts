import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { test } from "node:test";
import { parseTiktoken, rankOf } from "../src/query/context-package/bpe.js";
import { tokenCounter } from "../src/query/context-package/tokens.js";
import { TOKENIZERS } from "../src/query/context-package/types.js";
import { PROJECT_ROOT } from "./helpers/cli.js";

const load = createRequire(import.meta.url);
/** gpt-tokenizer's own counter, the reference: special-token strings counted as text. */
const AS_TEXT = { disallowedSpecial: new Set<string>(), allowedSpecial: new Set<string>() };
function reference(name: string): (text: string) => number {
  const enc = load(`gpt-tokenizer/cjs/encoding/${name}`) as { countTokens: (t: string, o: typeof AS_TEXT) => number };
  return (text) => enc.countTokens(text, AS_TEXT);
}

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) filesUnder(p, out);
    else if (/\.(ts|mjs|md|json|txt|py|go|rs|c|h)$/.test(e.name)) out.push(p);
  }
  return out;
}

/** Text no repository file here has: every script, emoji, combining marks, control bytes, special-token strings. */
const ODD = [
  "<|endoftext|> <|im_start|>user<|im_end|> <|fim_prefix|>",
  "héllo wörld — naïve café ÆØÅ ß ﬁ",
  "日本語のテキストと中文字符 한국어 텍스트 ไทย العربية עברית हिन्दी",
  "emoji 👩🏽‍💻🚀🇫🇷 ❤️‍🔥 and ZWJ\u200d joins",
  "tabs\t\tand\r\nCRLF\n\n\n   trailing   \u00a0nbsp\u2028line sep",
  "\u0000\u0001\u001f\u007f control",
  "e\u0301 combining a\u0308\u0308\u0308 stacked",
  "0123456789 3.14159e-10 0xDEADBEEF 1_000_000",
  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  "QmFzZTY0IGJsb2Igbm8gc3BhY2VzIGF0IGFsbCBqdXN0IGEgbG9uZyBydW4gb2YgbGV0dGVycyBhbmQgZGlnaXRzKysvLz09".repeat(8),
  "     ",
  "x",
  "I'm you'RE they'll we'd it's CAN'T",
];

for (const name of TOKENIZERS) {
  test(`${name}: the compact counter gives gpt-tokenizer's count for every file of this repository and for odd text`, () => {
    const ours = tokenCounter(name);
    const theirs = reference(name);
    const texts = [...ODD, ...filesUnder(join(PROJECT_ROOT, "src")).map((f) => readFileSync(f, "utf8")), ...filesUnder(join(PROJECT_ROOT, "test")).slice(0, 120).map((f) => readFileSync(f, "utf8"))];
    let total = 0;
    for (const t of texts) {
      const want = theirs(t);
      assert.equal(ours(t), want, `count differs for a text starting ${JSON.stringify(t.slice(0, 60))}`);
      total += want;
    }
    // Lines cut at random points: pieces that begin and end mid-word, mid-number, mid-character sequence.
    const big = texts.slice(0, 60).join("\n");
    for (let i = 0; i < 400; i++) {
      const a = (i * 7919) % big.length;
      const t = big.slice(a, a + ((i * 104729) % 400) + 1);
      assert.equal(ours(t), theirs(t), `count differs for ${JSON.stringify(t.slice(0, 60))}`);
    }
    assert.ok(total > 100_000, `only ${total} tokens compared`);
  });
}

test("the rank table finds every token of the file by its bytes and nothing that is not one", () => {
  const file = readFileSync(load.resolve("gpt-tokenizer/data/cl100k_base.tiktoken"));
  const text = file.toString("latin1");
  const t = parseTiktoken(file);
  const lines = text.split("\n").filter(Boolean);
  for (const line of lines.filter((_, i) => i % 97 === 0)) {
    const [b64, rank] = line.split(" ");
    const b = Buffer.from(b64!, "base64");
    assert.equal(rankOf(t, b, 0, b.length), Number(rank));
  }
  const notOne = Buffer.from("zzqxjv-not-a-single-token-zzqxjv");
  assert.equal(rankOf(t, notOne, 0, notOne.length), -1);
  for (const bad of ["IQ== x\n", "IQ==\n", "IQ== \n", "IQ== 12345678901\n"]) assert.throws(() => parseTiktoken(Buffer.from(bad)), /bad rank line/, bad);
});
