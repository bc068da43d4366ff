import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { rules as secretlintRules } from "@secretlint/secretlint-rule-preset-recommend";
import { REDACTION_RULES, redactText } from "../src/policy/redact.js";
import { SAMPLES, expandTemplate, type SecretSample } from "./fixtures/secret-formats/samples.js";

interface CoverageExample {
  text: string;
  key?: string;
}
interface CoverageEntry {
  id?: string;
  rule?: string;
  message?: string;
  ours: string[];
  examples?: CoverageExample[];
  notApplicable?: string;
}
interface Coverage {
  references: { secretlint: { version: string }; gitleaks: { rules: number; commit: string } };
  secretlint: CoverageEntry[];
  gitleaks: CoverageEntry[];
}

const COVERAGE = JSON.parse(readFileSync(new URL("./fixtures/secret-formats/coverage.json", import.meta.url), "utf8")) as Coverage;
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

/** Where a sample is tested: prose, code, YAML, JSON and .env for tokens; four assignment forms for keyed values. */
function contexts(s: SecretSample): Array<[string, string]> {
  if (s.kind === "token") {
    return [
      ["prose", `The deploy credential is ${s.secret} (rotate it yearly).`],
      ["code", `client = Client("${s.secret}", timeout=30)`],
      ["yaml", `service:\n  value: ${s.secret}\n`],
      ["json", `{"value": "${s.secret}", "retries": 3}`],
      ["env", `SERVICE_VALUE=${s.secret}\n`],
    ];
  }
  if (s.kind === "keyed") {
    const key = s.key!;
    return [
      ["yaml", `${key}: ${s.secret}\n`],
      ["json", `{"${key}": "${s.secret}"}`],
      ["env", `${key}=${s.secret}\n`],
      ["code", `const ${key} = "${s.secret}";`],
    ];
  }
  return [
    ["as is", s.text!],
    ["inside a document", `# Setup\n\n${s.text!}\n\nThat is all.`],
  ];
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
  it("lists every rule and message of the installed secretlint recommended preset", () => {
    const installed = JSON.parse(readFileSync(new URL("../node_modules/@secretlint/secretlint-rule-preset-recommend/package.json", import.meta.url), "utf8")) as { version: string };
    assert.equal(COVERAGE.references.secretlint.version, installed.version, "re-check the table when the preset changes");
    const expected = secretlintRules.flatMap((r) => Object.keys(r.messages).map((m) => `${r.meta.id}/${m}`)).sort();
    assert.deepEqual(COVERAGE.secretlint.map((e) => `${e.rule}/${e.message}`).sort(), expected);
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
      const name = e.id ?? `${e.rule}/${e.message}`;
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
    const name = e.id ?? `${e.rule}/${e.message}`;
    it(`${name} → ${e.ours.join(", ")}`, () => {
      const reasons = e.ours.map((o) => REASON_OF.get(o)!);
      for (const [i, ex] of (e.examples ?? []).entries()) {
        const { text, secrets } = expandTemplate(ex.text, `${name}/${i}`);
        if (ex.key !== undefined) {
          expectGone(`${ex.key}=${text}\n`, secrets, reasons, `${name} in .env`);
          expectGone(`${ex.key.toLowerCase()}: "${text}"`, secrets, reasons, `${name} in YAML`);
        } else {
          expectGone(text, secrets, reasons, name);
          if (!ex.text.includes("«")) expectGone(`See ${text} here.`, secrets, reasons, `${name} in prose`);
        }
      }
    });
  }
});

describe("benign look-alikes stay", () => {
  const sha1 = "9f3a1c2b7d4e5f60718293a4b5c6d7e8f9012345";
  const sha256 = "3b7e72b1c5a4f0d9e8c6b5a4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4";
  const md5 = "5d41402abc4b2a76b9719d911017c592";
  const uuid = "550e8400-e29b-41d4-a716-446655440000";
  const png = `iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg${"A".repeat(150)}QmCC`;
  const sri = "sha512-Zq8vR2mX7kLp4Tn9Wb3Yc6Hd1Fg5Js0aQ7Lk2Vx9Rt4Mz8Pw1Nc6Jb3Hf5Dg0SaQ7Lk2Vx9Rt4Mz8Pw1Nc6Jb3Hf5Dg0Sa==";
  const groups: Record<string, string[]> = {
    "commit SHAs": [
      `Fixed in ${sha1}.`,
      `commit ${sha1}\nAuthor: Fake <f@example.com>`,
      `commit: ${sha1}\n`,
      `"rev": "${sha1}",`,
      `GIT_COMMIT=${sha1}\n`,
      `CIRCLE_SHA1=${sha1}\n`,
      `SENTRY_RELEASE=${sha1}\n`,
      `build_sha: ${sha1}\n`,
      `const head = "${sha1}";`,
    ],
    "digests and checksums": [
      `image: ghcr.io/acme/api@sha256:${sha256}\n`,
      `"digest": "sha256:${sha256}"`,
      `FROM node:20@sha256:${sha256}`,
      `sha256: ${sha256}\n`,
      `sha256sum: ${sha256}\n`,
      `checksum = "${sha256}"\n[[package]]\nname = "fake"\n`,
      `"md5": "${md5}"`,
      `etag: "${md5}"\n`,
      `${sha256}  dist/app.tar.gz`,
      `build: ${sha1}\n`,
    ],
    "lockfile integrity": [`"integrity": "${sri}"`, `  integrity ${sri}\n`, "github.com/fake/lib v1.2.3 h1:Zq8vR2mX7kLp4Tn9Wb3Yc6Hd1Fg5Js0aQ7Lk2Vx9Rt4=\n"],
    UUIDs: [`id: ${uuid}\n`, `"requestId": "${uuid}"`, `CORRELATION_ID=${uuid}\n`, `const traceId = "${uuid}";`, `idempotency_key: ${uuid}\n`, `"key": "${uuid}"`],
    "base64 images and fixtures": [
      `![logo](data:image/png;base64,${png})`,
      `background: url(data:image/png;base64,${png});`,
      `icon: ${png}\n`,
      `"thumbnail": "${png}"`,
      `const fixture = "${Buffer.from("hello world, this is a base64 test fixture").toString("base64")}";`,
    ],
    "long identifiers and names": [
      "handler: createQuoteServiceHandlerFactory\n",
      "class AbstractSingletonProxyFactoryBeanConfigurationProvider2 {}",
      "export const DEFAULT_MAX_RETRY_BACKOFF_MILLISECONDS_V2 = 30000;",
      '"key": "settings.profile.title2"',
      'i18nKey: "checkout.payment.card_number_label"',
      'sort_key: "createdAtTimestamp2024"',
      'cache_key: "user-profile-v3-2024"',
      "task-1234567890abcdefghij is done",
      "desk-ABCDEFGHIJKLMNOPQRSTUV12345",
    ],
    "public keys and identifiers under key-like names": [
      `public_key: ${sha256}\n`,
      `primary_key: ${md5}\n`,
      "version: 2026.11.29-rc1-build-000123\n",
      'api_version: "2023-10-16"',
      "access_level: maintainer\n",
      "auth_method: oauth2\n",
      "credentials: 'same-origin',",
      "withCredentials: true,",
      "DATADOG_SITE=datadoghq.eu\n",
      "DD_ENV=production\n",
    ],
    "prefixes and commands in prose": [
      "sk-learn is a library",
      "Use the sk- prefix for OpenAI keys and sk-ant- for Anthropic.",
      "SG. is how SendGrid keys start; pypi- starts PyPI tokens; glpat- GitLab ones.",
      "Cookie: _gitlab_session=; path=/",
      "git push -u origin main",
      "docker run -u 1000:1000 fake/image",
      "Authorization: required for every call",
      "Authorization: Bearer <token>",
      'headers: {"Authorization": "Bearer ${TOKEN}"}',
      "X-Api-Key: ${API_KEY}",
      "https://fake.blob.core.windows.net/c/b.txt?sv=2022-11-02&sig=short",
      "self._password = password_input",
      "https://github.com/NaturalIntelligence/fast-xml-parser/issues/69",
      "See:\nhttps://github.com/fake-org/Fake-Repo/blob/03157639c7a7cddd2e9f032537f346f1a87c0f6d/src/Parse.js\n",
      "monkey: banana",
    ],
    "certificates and public keys": [
      "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----",
      "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----",
      "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFakeFakeFakeFakeFakeFakeFakeFakeFakeFake fake@host",
    ],
    "manifests that are not secrets": [
      "apiVersion: v1\nkind: ConfigMap\ndata:\n  LOG_LEVEL: debug\n  FEATURE_FLAGS: a,b,c\n",
      'kind: Secret\ndata:\n  password: ""\n  token: {{ .Values.token }}\n',
    ],
  };
  for (const [group, inputs] of Object.entries(groups)) {
    it(group, () => {
      for (const input of inputs) {
        const r = redactText(input);
        assert.equal(r.text, input, `should stay: ${input}`);
        assert.deepEqual(r.redactions, [], input);
      }
    });
  }
});
