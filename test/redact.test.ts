import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { REDACTED, REDACTION_REASONS, REDACTION_RULES, WHOLE_TEXT_PATTERNS, redactText, type RedactResult } from "../src/policy/redact.js";
import { TOKEN_FORMATS } from "../src/policy/secret-formats/index.js";
import { regexShapeViolations } from "./helpers/regex-shape.js";

// Secret-shaped fixtures are assembled at run time so that this file itself does not look like it leaks keys.
const j = (...parts: string[]): string => parts.join("");
const GH_PAT = j("ghp", "_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8");
const GH_FINE = j("github", "_pat_", "11ABCDEFG0123456789abc", "_", "Zy9".repeat(19), "XY");
const AWS_ID = j("AKIA", "Z3QXK7PLM2N8RT4V");
const AWS_SECRET = j("wJalrXUtnFEMI", "/K7MDENG/bPxRfiCY", "Q9z8y7x6w5");
const AWS_SECRET_LENGTH = 40;
const SLACK_BOT = j("xoxb", "-", "263594206564-2343594206574-FGqddMF8t08v8N7Oq4i57vs1");
const SLACK_HOOK_PATH = j("T00000000", "/B00000000/", "XXXXXXXXXXXXXXXXXXXXXXXX");
const STRIPE_LIVE = j("sk", "_live_", "4eC39HqLyjWDarjtT1zdp7dc");
const STRIPE_TEST = j("sk", "_test_", "51HxyzABCdefGHIjklMNOpqr");
const STRIPE_RESTRICTED = j("rk", "_live_", "51HxyzABCdefGHIjklMNOpqr");
const GOOGLE_KEY = j("AIza", "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY");
const NPM_TOKEN = j("npm", "_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
const JWT = j(
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9",
  ".",
  "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ",
  ".",
  "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
);

function pem(label: string, bodyLines: number): string {
  const body = Array.from({ length: bodyLines }, (_, i) => `MIIEpAIBAAKCAQEA${i}xq3Zk9Bv7Yw2Tn5Hh8Lp0Rr`);
  return [j("-----BEGIN ", label, "-----"), ...body, j("-----END ", label, "-----")].join("\n");
}

function reasons(r: RedactResult): Record<string, number> {
  return Object.fromEntries(r.redactions.map((x) => [x.reason, x.count]));
}

function expectRedacted(input: string, expected: string, reason: string, count = 1): void {
  const r = redactText(input);
  assert.equal(r.text, expected, `input: ${input}`);
  assert.equal(r.redacted, true);
  assert.deepEqual(reasons(r), { [reason]: count }, `input: ${input}`);
}

function expectUntouched(input: string): void {
  const r = redactText(input);
  assert.equal(r.text, input, `should not redact: ${input}`);
  assert.equal(r.redacted, false, `should not redact: ${input}`);
  assert.deepEqual(r.redactions, []);
}

describe("redactText: API", () => {
  it("exports the placeholder and stable, unique reason ids", () => {
    assert.equal(REDACTED, "[REDACTED]");
    assert.equal(new Set(REDACTION_REASONS).size, REDACTION_REASONS.length);
    // Ids already in outputs before the format tables grew: never renamed.
    for (const id of [
      "aws-access-key-id",
      "aws-secret-access-key",
      "github-token",
      "google-api-key",
      "high-entropy-value",
      "jwt",
      "npm-token",
      "private-key",
      "secret-like-token",
      "slack-token",
      "slack-webhook",
      "stripe-key",
      "url-credentials",
    ]) {
      assert.ok((REDACTION_REASONS as readonly string[]).includes(id), id);
    }
  });

  it("every reason belongs to a rule and every rule id is unique", () => {
    const used = new Set(REDACTION_RULES.map((r) => r.reason));
    assert.deepEqual(REDACTION_REASONS.filter((r) => !used.has(r)), []);
    assert.equal(new Set(REDACTION_RULES.map((r) => r.id)).size, REDACTION_RULES.length);
  });

  it("token formats: lower-case hints, and a capture group only to keep the match's opening", () => {
    for (const f of TOKEN_FORMATS) {
      assert.ok(f.hints.length > 0 && f.hints.every((h) => h === h.toLowerCase() && h.length > 0), f.id);
      const groups = new RegExp(`${f.source}|`).exec("")!.length - 1;
      assert.ok(groups <= 1, `${f.id} has ${groups} capture groups`);
      if (groups === 1) assert.ok(f.source.startsWith("(") && !f.source.startsWith("(?"), `${f.id}: group 1 must open the pattern`);
    }
  });

  it("returns clean text unchanged", () => {
    expectUntouched("");
    expectUntouched("export function add(a: number, b: number): number {\n  return a + b;\n}\n");
  });

  it("counts several hits of one reason and lists reasons in rule order", () => {
    const r = redactText(`a=${GH_PAT}\nb=${GH_PAT}\nkey: ${AWS_ID}\n`);
    assert.deepEqual(r.redactions, [
      { reason: "aws-access-key-id", count: 1 },
      { reason: "github-token", count: 2 },
    ]);
    assert.equal(r.text, `a=${REDACTED}\nb=${REDACTED}\nkey: ${REDACTED}\n`);
  });
});

describe("redactText: specific token formats", () => {
  it("private-key: a multi-line PEM block, keeping header, footer and line count", () => {
    const block = pem("RSA PRIVATE KEY", 5);
    const input = `const key = \`\n${block}\n\`;\nconsole.log("after");`;
    const r = redactText(input);
    assert.deepEqual(reasons(r), { "private-key": 1 });
    assert.ok(r.text.includes("-----BEGIN RSA PRIVATE KEY-----"));
    assert.ok(r.text.includes("-----END RSA PRIVATE KEY-----"));
    assert.ok(r.text.includes(REDACTED));
    assert.ok(!r.text.includes("MIIEpAIBAAKCAQEA"), r.text);
    assert.equal(r.text.split("\n").length, input.split("\n").length, "line count preserved");
    assert.ok(r.text.endsWith('console.log("after");'));
  });

  for (const label of ["PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "ENCRYPTED PRIVATE KEY", "DSA PRIVATE KEY", "PGP PRIVATE KEY BLOCK"]) {
    it(`private-key: ${label}`, () => {
      const r = redactText(pem(label, 3));
      assert.deepEqual(reasons(r), { "private-key": 1 });
      assert.ok(!r.text.includes("MIIEpAIBAAKCAQEA"));
    });
  }

  it("private-key: a key with escaped newlines inside JSON", () => {
    const input = j('{"private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n', '-----END PRIVATE KEY-----\\n"}');
    const r = redactText(input);
    assert.equal(r.text, j('{"private_key": "-----BEGIN PRIVATE KEY-----', REDACTED, '-----END PRIVATE KEY-----\\n"}'));
    assert.deepEqual(reasons(r), { "private-key": 1 });
  });

  it("private-key: an unterminated block (truncated excerpt) is redacted to the end", () => {
    const input = j("-----BEGIN RSA PRIVATE KEY-----\n", "MIIEowIBAAKCAQEAx\nq3Zk9Bv7Yw2Tn5Hh8");
    const r = redactText(input);
    assert.deepEqual(reasons(r), { "private-key": 1 });
    assert.ok(!r.text.includes("MIIEowIBAAKCAQEAx"));
    assert.equal(r.text.split("\n").length, input.split("\n").length);
  });

  it("private-key: two blocks count twice, text between them stays", () => {
    const r = redactText(`${pem("PRIVATE KEY", 2)}\nmiddle text\n${pem("EC PRIVATE KEY", 2)}`);
    assert.deepEqual(reasons(r), { "private-key": 2 });
    assert.ok(r.text.includes("\nmiddle text\n"));
  });

  it("private-key: public keys and certificates are not secrets", () => {
    expectUntouched(j("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----"));
    expectUntouched(j("-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBa\n-----END CERTIFICATE-----"));
  });

  it("aws-access-key-id", () => {
    expectRedacted(`aws_access_key_id = ${AWS_ID}`, `aws_access_key_id = ${REDACTED}`, "aws-access-key-id");
    expectRedacted(`"AccessKeyId": "${j("ASIA", "Y3QXK7PLM2N8RT4V")}",`, `"AccessKeyId": "${REDACTED}",`, "aws-access-key-id");
    expectUntouched("AKIA is the prefix of long-term AWS access key ids");
    expectUntouched(`X${AWS_ID}`);
  });

  it("aws-secret-access-key", () => {
    assert.equal(AWS_SECRET.length, AWS_SECRET_LENGTH, "fixture sanity");
    expectRedacted(`aws_secret_access_key = ${AWS_SECRET}`, `aws_secret_access_key = ${REDACTED}`, "aws-secret-access-key");
    expectRedacted(`AWS_SECRET_ACCESS_KEY="${AWS_SECRET}"`, `AWS_SECRET_ACCESS_KEY="${REDACTED}"`, "aws-secret-access-key");
    expectRedacted(`  secretAccessKey: '${AWS_SECRET}',`, `  secretAccessKey: '${REDACTED}',`, "aws-secret-access-key");
    expectRedacted(`"SecretAccessKey": "${AWS_SECRET}"`, `"SecretAccessKey": "${REDACTED}"`, "aws-secret-access-key");
  });

  it("github-token", () => {
    expectRedacted(`export GITHUB_TOKEN=${GH_PAT}`, `export GITHUB_TOKEN=${REDACTED}`, "github-token");
    expectRedacted(`git clone https://${GH_PAT}@github.com/o/r.git`, `git clone https://${REDACTED}@github.com/o/r.git`, "github-token");
    for (const prefix of ["gho", "ghu", "ghs", "ghr"]) {
      const t = j(prefix, "_", "Z".repeat(36));
      expectRedacted(`token ${t} end`, `token ${REDACTED} end`, "github-token");
    }
    expectRedacted(`Authorization: Bearer ${GH_FINE}`, `Authorization: Bearer ${REDACTED}`, "github-token");
    expectUntouched("ghp_short");
  });

  it("slack-token", () => {
    expectRedacted(`SLACK_BOT_TOKEN=${SLACK_BOT}`, `SLACK_BOT_TOKEN=${REDACTED}`, "slack-token");
    expectRedacted(`client = WebClient("${j("xoxp", "-1234567890-0987654321-abcdef")}")`, `client = WebClient("${REDACTED}")`, "slack-token");
    expectUntouched("Slack bot tokens start with xoxb- and user tokens with xoxp-.");
  });

  it("slack-webhook: keeps the host, redacts the path", () => {
    const url = j("https://hooks.slack.com/services/", SLACK_HOOK_PATH);
    expectRedacted(`webhook_url: ${url}`, `webhook_url: https://hooks.slack.com/services/${REDACTED}`, "slack-webhook");
  });

  it("stripe-key", () => {
    expectRedacted(`apiKey: "${STRIPE_LIVE}"`, `apiKey: "${REDACTED}"`, "stripe-key");
    expectRedacted(`const stripe = new Stripe('${STRIPE_TEST}');`, `const stripe = new Stripe('${REDACTED}');`, "stripe-key");
    expectRedacted(`STRIPE_KEY=${STRIPE_RESTRICTED}`, `STRIPE_KEY=${REDACTED}`, "stripe-key");
    expectUntouched("Publishable keys (pk_live_...) are safe to embed; secret keys start with sk_live_.");
  });

  it("google-api-key", () => {
    expectRedacted(`const firebaseConfig = { key: "${GOOGLE_KEY}" };`, `const firebaseConfig = { key: "${REDACTED}" };`, "google-api-key");
    expectRedacted(`https://maps.googleapis.com/maps/api/js?key=${GOOGLE_KEY}&callback=init`, `https://maps.googleapis.com/maps/api/js?key=${REDACTED}&callback=init`, "google-api-key");
  });

  it("npm-token", () => {
    expectRedacted(`//npm.pkg.example/:_authToken=${NPM_TOKEN}`, `//npm.pkg.example/:_authToken=${REDACTED}`, "npm-token");
    expectRedacted("//npm.pkg.example/:_authToken=abcdef0123456789", `//npm.pkg.example/:_authToken=${REDACTED}`, "npm-token");
    expectRedacted(`NPM_TOKEN: ${NPM_TOKEN}`, `NPM_TOKEN: ${REDACTED}`, "npm-token");
  });

  it("jwt", () => {
    expectRedacted(`Authorization: Bearer ${JWT}`, `Authorization: Bearer ${REDACTED}`, "jwt");
    expectRedacted(`curl -H "Authorization: Bearer ${JWT}" https://api`, `curl -H "Authorization: Bearer ${REDACTED}" https://api`, "jwt");
    expectUntouched("eyJ is how a base64url-encoded JSON object starts.");
  });

  it("url-credentials: only the password goes", () => {
    expectRedacted("DATABASE_URL=postgres://app:S3cr3t-pa55@db.internal:5432/app", `DATABASE_URL=postgres://app:${REDACTED}@db.internal:5432/app`, "url-credentials");
    expectRedacted("amqp://guest:guest@localhost:5672/", `amqp://guest:${REDACTED}@localhost:5672/`, "url-credentials");
    expectRedacted('redis_url: "redis://default:hunter2@cache:6379"', `redis_url: "redis://default:${REDACTED}@cache:6379"`, "url-credentials");
    expectRedacted("jdbc:mysql://root:rootpw@mysql:3306/db", `jdbc:mysql://root:${REDACTED}@mysql:3306/db`, "url-credentials");
    expectUntouched("git@github.com:org/repo.git");
    expectUntouched("https://user@example.com/path");
    expectUntouched("https://example.com/a:b@c");
    expectUntouched("postgres://app:${DB_PASSWORD}@db:5432/app");
    expectUntouched("http://localhost:8080/path");
  });
});

describe("redactText: generic secret-like assignments", () => {
  const redacted: Array<[string, string]> = [
    ['password: "hunter2hunter2"', `password: "${REDACTED}"`],
    ["DB_PASSWORD=Tr0ub4dor&3", `DB_PASSWORD=${REDACTED}`],
    ["DB_PASS=plainpassword", `DB_PASS=${REDACTED}`],
    ["export API_KEY='a8f5f167f44f4964e6c998dee827110c'", `export API_KEY='${REDACTED}'`],
    ["spring.datasource.password=s3cr3tP4ss", `spring.datasource.password=${REDACTED}`],
    ["db.password = s3cr3tP4ss", `db.password = ${REDACTED}`],
    ["  password: hunter22x", `  password: ${REDACTED}`],
    ["  - secret: q9X!f00bar # rotate yearly", `  - secret: ${REDACTED} # rotate yearly`],
    ['const apiKey = "8d7f6e5d4c3b2a19";', `const apiKey = "${REDACTED}";`],
    ["  clientSecret: 'abcDEF123456ghi',", `  clientSecret: '${REDACTED}',`],
    ['{"client_secret":"0a1b2c3d4e5f","user":"bob"}', `{"client_secret":"${REDACTED}","user":"bob"}`],
    ["dbPassword := \"goSecret123\"", `dbPassword := "${REDACTED}"`],
    ["'password' => 'p4ssw0rd!!',", `'password' => '${REDACTED}',`],
    [":password => 'p4ssw0rd!!',", `:password => '${REDACTED}',`],
    ["private_key = `abcdEFGH12345678`", `private_key = \`${REDACTED}\``],
    ['access_key: "AbCdEf123456"', `access_key: "${REDACTED}"`],
    ['auth_token = "tok_9f8e7d6c5b4a"', `auth_token = "${REDACTED}"`],
    ["SESSION_TOKEN=abc123def456ghi789", `SESSION_TOKEN=${REDACTED}`],
    ['x-api-key: "0123456789abcdef"', `x-api-key: "${REDACTED}"`],
    ["this.secret = 'kjh23KJH89sd';", `this.secret = '${REDACTED}';`],
    ['<add key="Password" value="x" password="Zx9!Zx9!Zx9" />', `<add key="Password" value="x" password="${REDACTED}" />`],
    ["# API_KEY=abc123def456ghi", `# API_KEY=${REDACTED}`],
    ["  password: cGFzc3dvcmQxMjM=", `  password: ${REDACTED}`],
    ['secret_key_base: "d41d8cd98f00b204e9800998ecf8427e"', `secret_key_base: "${REDACTED}"`],
    ['"passwordHash": "5f4dcc3b5aa765d61d8327deb882cf99"', `"passwordHash": "${REDACTED}"`],
  ];
  for (const [input, expected] of redacted) {
    it(`redacts ${input}`, () => expectRedacted(input, expected, "secret-like-token"));
  }

  it("redacts several assignments in one multi-line config", () => {
    const input = "db:\n  user: app\n  password: Zx9!Zx9!Zx9\nredis:\n  token: 7e3f9a1c2b4d\n";
    const r = redactText(input);
    assert.equal(r.text, `db:\n  user: app\n  password: ${REDACTED}\nredis:\n  token: ${REDACTED}\n`);
    assert.deepEqual(reasons(r), { "secret-like-token": 2 });
  });

  const untouched = [
    // Code, not values.
    "const token = getToken();",
    "token = get_token()",
    "password = user_password_var",
    "password = os.environ['DB_PASSWORD']",
    'password = os.getenv("DB_PASSWORD")',
    "apiKey: process.env.API_KEY,",
    "const secret = process.env.SECRET ?? '';",
    "token := os.Getenv(\"TOKEN\")",
    "  secret: config.secret",
    "password: userPassword",
    "  password: userPassword,",
    "secretKey: SecretKeySpec",
    "if (password == \"hunter2hunter2\") {",
    "if (token === 'abcdef123456') return;",
    "assert password != 'hunter2hunter2'",
    "tokens.map(token => token.trim())",
    "items.map(token => \"abcdefghij12\")",
    "let token: string | undefined;",
    "password: string;",
    "  password?: string;",
    "password: str",
    "password: Optional[str] = None",
    "def check(password: str) -> bool:",
    "private readonly tokenizer = new Tokenizer();",
    "tokenizer = 'bert-base-uncased'",
    "maxTokens = 4096",
    "max_tokens: 4096",
    "token_type: bearer",
    "tokenType = 'Bearer'",
    // Metadata about secrets, not secrets.
    "passwordFile: /run/secrets/db_password",
    "token_url: https://auth.example.com/oauth/token",
    "tokenEndpoint = 'https://login.example.com/token'",
    "secretName: my-app-secrets",
    "PASSWORD_MIN_LENGTH = 12345678",
    "api_key_header: X-Api-Key-Header",
    '"passwordPrompt": "Please enter your password"',
    '"forgotPassword": "Forgot your password?"',
    '"resetPasswordLink": "/reset-password"',
    "autocomplete: new-password",
    'passwordInput: "current-password"',
    'tokenKey: "auth.token.value"',
    // Placeholders.
    "password: ${DB_PASSWORD}",
    'password: "${DB_PASSWORD}"',
    "API_KEY=<your-api-key>",
    'api_key: "<YOUR_API_KEY>"',
    "password: changeme",
    "password=changeme123",
    'secret: "xxxxxxxxxxxx"',
    "token: XXXX-XXXX-XXXX",
    'password: "********"',
    "api_key: your-api-key-here",
    "API_TOKEN=your_token_here",
    'client_secret: "example-client-secret"',
    "token: {{ secrets.GITHUB_TOKEN }}",
    "password: $DB_PASSWORD",
    "password=%DB_PASSWORD%",
    "password: ''",
    'password: ""',
    "password:",
    "password: short",
    "password: !vault |",
    "password: *default_password",
    "password: >-",
    "secret_value: [REDACTED]",
    // Prose and logs.
    "The password must be at least 8 characters long.",
    "- **Password**: the admin password for the dashboard",
    "Token: see the vault entry for details",
    "We rotate the secret every 90 days.",
    "token=abc123def456 user=bob ip=10.0.0.1",
  ];
  for (const input of untouched) {
    it(`leaves alone ${input}`, () => expectUntouched(input));
  }
});

describe("redactText: idempotency", () => {
  const samples = [
    `password: "hunter2hunter2"\nAPI_KEY=${GH_PAT}\n${pem("RSA PRIVATE KEY", 4)}\n`,
    `url = "postgres://u:p4ssw0rd@h/db"\ntoken: ${JWT}\naws_secret_access_key = ${AWS_SECRET}`,
    `{"key": "${GOOGLE_KEY}", "npm": "${NPM_TOKEN}", "slack": "${SLACK_BOT}", "stripe": "${STRIPE_LIVE}"}`,
    j("-----BEGIN PRIVATE KEY-----\n", "MIIEvQIBADANBg\n"),
    `x=${AWS_ID} https://hooks.slack.com/services/${SLACK_HOOK_PATH}`,
  ];
  for (const [i, sample] of samples.entries()) {
    it(`a second pass changes nothing and reports nothing (sample ${i + 1})`, () => {
      const first = redactText(sample);
      assert.equal(first.redacted, true);
      const second = redactText(first.text);
      assert.equal(second.text, first.text);
      assert.equal(second.redacted, false);
      assert.deepEqual(second.redactions, []);
    });
  }

  it("leaves the literal placeholder alone wherever it appears", () => {
    expectUntouched(`password: "${REDACTED}"`);
    expectUntouched(`postgres://u:${REDACTED}@h/db`);
    expectUntouched(j("-----BEGIN RSA PRIVATE KEY-----\n", REDACTED, "\n\n-----END RSA PRIVATE KEY-----"));
    expectUntouched(j("-----BEGIN RSA PRIVATE KEY-----", REDACTED, "-----END RSA PRIVATE KEY-----"));
  });
});

describe("redactText: linear work", () => {
  // A backtracking matcher does bounded work at each position of a pattern whose repetitions are all bounded and
  // never nested, so each pass over a text of n characters is O(n) whatever the text. The check reads the patterns,
  // not a clock: timings live in `npm run bench:redact`.
  it("the shape check itself catches what it must", () => {
    assert.deepEqual(
      ["(a+)+", "a*", "x{2,}", "(?:a{1,5}){2,3}", "a{1,20000}"].map((p) => regexShapeViolations(p).map((v) => v.problem)),
      [["unbounded repetition", "unbounded repetition", "nested repetition"], ["unbounded repetition"], ["unbounded repetition"], ["nested repetition"], ["bound too large"]],
    );
    for (const ok of [String.raw`(?:[^"\\]|\\.){0,1024}`, String.raw`(?=(?<key>[a-z]{0,9}))\k<key>x{1,3}`, "(?:ab){0,4}[a-z]?", "[{(*+]{1,3}"]) {
      assert.deepEqual(regexShapeViolations(ok), [], ok);
    }
  });

  it("every pattern run over a whole text has bounded, unnested repetitions", () => {
    assert.ok(WHOLE_TEXT_PATTERNS.length > TOKEN_FORMATS.length);
    for (const source of WHOLE_TEXT_PATTERNS) assert.deepEqual(regexShapeViolations(source), [], source);
  });

  const SIZE = 200_000;
  const adversarial: Array<[string, string]> = [
    ["long identifier run", "a".repeat(SIZE)],
    ["repeated secret keys without values", "password=".repeat(SIZE / 9)],
    ["repeated secret keys with quotes never closed", 'password: "'.repeat(SIZE / 11)],
    ["long unclosed quoted value", `password: "${"x".repeat(SIZE)}`],
    ["many BEGIN markers without END", j("-----BEGIN PRIVATE KEY-----", "\n").repeat(SIZE / 28)],
    ["jwt-like fragments", "eyJaaaaa.".repeat(SIZE / 9)],
    ["url-like fragments", "https://user:".repeat(SIZE / 13)],
    ["slack-like fragments", "xoxb-1".repeat(SIZE / 6)],
    ["long key names", `${"password_".repeat(SIZE / 10)}: value`],
    ["many lines of config", "db_password: Zx9!Zx9!Zx9\n".repeat(SIZE / 25)],
    ["one long line of assignments", "a password=Zx9!Zx9!Zx9 # ".repeat(SIZE / 25)],
    ["one long line of quoted secrets", 'token: "Zx9!Zx9!Zx9", '.repeat(SIZE / 22)],
    ["long comment after a config value", `password: Zx9!Zx9!Zx9 #${" password: Zx9!Zx9!Zx9".repeat(SIZE / 22)}`],
    ["token prefixes without bodies", "glpat- sk-ant- sk-proj- SG. pypi-Ag hvs. AKIA ghp_ xoxb- ".repeat(SIZE / 58)],
    ["a base64 run", "QUJD".repeat(SIZE / 4)],
    ["hex runs under secret keys", "app_key = 0123456789abcdef\n".repeat(SIZE / 27)],
    ["many Kubernetes data blocks", "kind: Secret\ndata:\n  a: b\n".repeat(SIZE / 26)],
    ["many headers without values", "Authorization: Bearer \n".repeat(SIZE / 23)],
  ];
  for (const [name, input] of adversarial) {
    it(`keeps its guarantees on ${name}`, () => {
      const r = redactText(input);
      assert.equal(r.text.split("\n").length, input.split("\n").length);
      assert.equal(redactText(r.text).redacted, false, "a second pass finds nothing");
    });
  }
});

describe("environment-file passphrases", () => {
  it("a word-list value assigned to an upper-case secret key in a .env line is redacted", () => {
    const r = redactText("DB_HOST=localhost\nDB_PASSWORD=correct-horse-battery-staple\n");
    assert.equal(r.text, "DB_HOST=localhost\nDB_PASSWORD=[REDACTED]\n");
    assert.deepEqual(r.redactions, [{ reason: "secret-like-token", count: 1 }]);
  });
  it("the same word list as a quoted field name in code stays", () => {
    const line = 'const field = { password: "new-password" };';
    assert.equal(redactText(line).text, line);
  });
});

describe("line-numbered slices", () => {
  it("config lines behind a slice's line-number gutter are still redacted", () => {
    assert.equal(redactText(" 2| DB_PASSWORD=correct-horse-battery-staple").text, " 2| DB_PASSWORD=[REDACTED]");
    assert.equal(redactText("12|   apiToken: Zx9vQ2mK7pL4wR8t").text, "12|   apiToken: [REDACTED]");
  });
});

describe("redactText: high-entropy values in configuration lines", () => {
  it("redacts a random-looking value whatever its key", () => {
    expectRedacted("BUILD_MARKER=Zq8vR2mX7kLp4Tn9Wb3Yc6Hd1Fg5Js0a\n", "BUILD_MARKER=[REDACTED]\n", "high-entropy-value");
    expectRedacted("webhook_tag: 'q7Lk2Vx9Rt4Mz8Pw1Nc6Jb3Hf5Dg0Sa'\n", "webhook_tag: '[REDACTED]'\n", "high-entropy-value");
    expectRedacted(" 12|   opaque: Wk3Pq9Zr7Tx2Lm8Vn4Cj6Bh1Fd5Gs0Ya # rotated\n", " 12|   opaque: [REDACTED] # rotated\n", "high-entropy-value");
  });
  it("a key that asks for a credential takes a random value at a lower bar, in code too", () => {
    expectRedacted("SIGNING_SALT=Zq8vR2mX7kLp4Tn9Wb3Yc6Hd1Fg5Js0a\n", "SIGNING_SALT=[REDACTED]\n", "generic-api-key");
    expectRedacted("webhook_sig: 'q7Lk2Vx9Rt4Mz8Pw1Nc6Jb3Hf5Dg0Sa'\n", "webhook_sig: '[REDACTED]'\n", "generic-api-key");
    expectRedacted('const client = new Api({ auth: "Wk3Pq9Zr7Tx2Lm8Vn4Cj6Bh1Fd5Gs0Ya" });', 'const client = new Api({ auth: "[REDACTED]" });', "generic-api-key");
    expectUntouched('const client = new Api({ auth: "settings-profile-title" });');
    expectUntouched('{"key": "settings.profile.title2"}');
  });
  it("leaves digests, versions, identifiers and words alone", () => {
    expectUntouched("commit: 9f3a1c2b7d4e5f60718293a4b5c6d7e8f9012345\n");
    expectUntouched("integrity: sha512-Zq8vR2mX7kLp4Tn9Wb3Yc6Hd1Fg5Js0aQ7Lk2Vx9Rt4Mz8Pw1Nc6Jb3Hf5Dg0Sa==\n");
    expectUntouched("image: registry.example.com/acme/pricing:1.25.3-alpine\n");
    expectUntouched("handler: createQuoteServiceHandlerFactory\n");
    expectUntouched("checksum=Zq8vR2mX7kLp4Tn9Wb3Yc6Hd1Fg5Js0a\n");
    expectUntouched("version: 2026.11.29-rc1-build-000123\n");
    expectUntouched("const x = computeSomething(a, b);\n");
  });
});
