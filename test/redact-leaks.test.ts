/**
 * The leaks of issue #16, as regressions: a GitLab token in an AGENTS.md sentence, an Azure storage connection
 * string's AccountKey, a Datadog `app_key = "<40 hex>"` (hex was exempted as a digest even under a secret-looking
 * key) and bare provider prefixes. Checked on the redactor and through the served tools of a real repository.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { defaultReadPolicy } from "../src/config/schema.js";
import { silentLogger } from "../src/core/log.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { REDACTED, redactText } from "../src/policy/redact.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { fake, ALNUM } from "./fixtures/secret-formats/samples.js";
import { commitFiles } from "./helpers/fixture.js";
import { openClient } from "./helpers/harness.js";

const j = (...parts: string[]): string => parts.join("");
const HEX = "0123456789abcdef";
const GITLAB = j("glpat-", fake(ALNUM + "_-", 20, "issue-gitlab"));
const AZURE_KEY = j(fake(ALNUM + "+/", 86, "issue-azure"), "==");
const AZURE = j("DefaultEndpointsProtocol=https;AccountName=fakestore;AccountKey=", AZURE_KEY, ";EndpointSuffix=core.windows.net");
const DATADOG_APP_KEY = fake(HEX, 40, "issue-datadog");
const ANTHROPIC = j("sk-ant-api03-", fake(ALNUM + "_-", 93, "issue-anthropic"), "AA");
const OPENAI_PROJECT = j("sk-proj-", fake(ALNUM + "_-", 120, "issue-openai"));
const SENDGRID = j("SG.", fake(ALNUM + "_-", 22, "issue-sg1"), ".", fake(ALNUM + "_-", 43, "issue-sg2"));
const PYPI = j("pypi-AgEIcHlwaS5vcmc", fake(ALNUM + "_-", 70, "issue-pypi"));
const SECRETS = [GITLAB, AZURE_KEY, DATADOG_APP_KEY, ANTHROPIC, OPENAI_PROJECT, SENDGRID, PYPI];

const AGENTS_MD = j("# Agents\n\nRun the release job with the token ", GITLAB, " when the pipeline asks for one.\n");
const STORAGE_TS = j('export const storageConnection =\n  "', AZURE, '";\n');
const DATADOG_PY = j('from datadog import initialize\n\napi_key = "', fake(HEX, 32, "issue-dd-api"), '"\napp_key = "', DATADOG_APP_KEY, '"\ninitialize(api_key=api_key, app_key=app_key)\n');
const KEYS_MD = j("Keys for the demo: ", ANTHROPIC, ", ", OPENAI_PROJECT, ", ", SENDGRID, " and ", PYPI, ".\n");

describe("issue #16 leaks: the redactor", () => {
  it("a GitLab token in an instruction sentence", () => {
    const r = redactText(AGENTS_MD);
    assert.equal(r.text, `# Agents\n\nRun the release job with the token ${REDACTED} when the pipeline asks for one.\n`);
    assert.deepEqual(r.redactions, [{ reason: "gitlab-token", count: 1 }]);
  });

  it("an Azure storage connection string keeps its shape and loses its AccountKey, also in a numbered slice", () => {
    const r = redactText(STORAGE_TS);
    assert.ok(!r.text.includes(AZURE_KEY));
    assert.ok(r.text.includes(`AccountName=fakestore;AccountKey=${REDACTED};EndpointSuffix=core.windows.net`), r.text);
    assert.deepEqual(r.redactions, [{ reason: "azure-storage-key", count: 1 }]);
    const slice = STORAGE_TS.split("\n").map((line, i) => `${i + 1}| ${line}`).join("\n");
    assert.ok(!redactText(slice).text.includes(AZURE_KEY));
  });

  it("a Datadog app_key of 40 hex characters is a secret, not a digest", () => {
    const r = redactText(DATADOG_PY);
    assert.ok(!r.text.includes(DATADOG_APP_KEY), r.text);
    assert.ok(r.text.includes(`app_key = "${REDACTED}"`));
    assert.ok(r.text.includes("initialize(api_key=api_key, app_key=app_key)"), "code stays");
    for (const line of [`app_key = "${DATADOG_APP_KEY}"`, `APP_KEY=${DATADOG_APP_KEY}`, `app_key: ${DATADOG_APP_KEY}`, `"appKey": "${DATADOG_APP_KEY}"`, `DD_APP_KEY=${DATADOG_APP_KEY}`]) {
      assert.ok(!redactText(line).text.includes(DATADOG_APP_KEY), line);
    }
  });

  it("hex under a secret-looking key goes; the same hex as a digest, commit or checksum stays", () => {
    for (const line of [`signing_key: ${DATADOG_APP_KEY}\n`, `SIGNING_SALT=${DATADOG_APP_KEY}\n`, `webhook_secret = "${DATADOG_APP_KEY}"`, `hmac: ${DATADOG_APP_KEY}\n`]) {
      assert.ok(!redactText(line).text.includes(DATADOG_APP_KEY), line);
    }
    for (const line of [`commit: ${DATADOG_APP_KEY}\n`, `checksum: ${DATADOG_APP_KEY}\n`, `sha1 = "${DATADOG_APP_KEY}"`, `Merged ${DATADOG_APP_KEY} into main.`, `build: ${DATADOG_APP_KEY}\n`]) {
      assert.equal(redactText(line).text, line);
    }
  });

  it("bare prefixes: sk-ant-, sk-proj-, SG., pypi-", () => {
    const r = redactText(KEYS_MD);
    for (const s of [ANTHROPIC, OPENAI_PROJECT, SENDGRID, PYPI]) assert.ok(!r.text.includes(s), s);
    assert.equal(r.text, `Keys for the demo: ${REDACTED}, ${REDACTED}, ${REDACTED} and ${REDACTED}.\n`);
    assert.deepEqual(
      r.redactions.map((x) => x.reason),
      ["anthropic-key", "openai-key", "sendgrid-key", "pypi-token"],
    );
  });
});

describe("issue #16 leaks: through the served tools", () => {
  let base: string;
  let store: SqliteStore;
  let client: Client;
  const outputs: string[] = [];
  const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const text = JSON.stringify(await client.callTool({ name, arguments: { verbosity: "full", ...args } }));
    outputs.push(text);
    return text;
  };

  before(async () => {
    base = mkdtempSync(join(tmpdir(), "repoctx-leaks-"));
    const root = join(base, "repo");
    commitFiles(root, { "AGENTS.md": AGENTS_MD, "src/storage.ts": STORAGE_TS, "ops/datadog.py": DATADOG_PY, "docs/keys.md": KEYS_MD });
    store = SqliteStore.open(join(base, "index.db"));
    const built = await buildIndex({ root, store, maxFileBytes: 1 << 20 });
    client = await openClient({ store, root: built.repo.rootPath, policy: defaultReadPolicy(), logger: silentLogger, readHead: async () => built.repo.baseCommit });
  });
  after(async () => {
    await client.close();
    await store.close();
    rmSync(base, { recursive: true, force: true });
  });

  it("get_instructions, search_code and get_file_slice never return the secrets", async () => {
    await call("get_instructions", { paths: ["src/storage.ts"] });
    for (const query of ["AccountKey", "app_key", "release job", "Keys for the demo"]) await call("search_code", { query });
    for (const path of ["AGENTS.md", "src/storage.ts", "ops/datadog.py", "docs/keys.md"]) await call("get_file_slice", { path });
    const all = outputs.join("\n");
    for (const s of SECRETS) assert.ok(!all.includes(s), `leaked ${s.slice(0, 12)}…`);
    assert.ok(all.includes("AccountKey="), "the connection string's shape is still served");
    assert.ok(all.includes(REDACTED), "something was redacted");
  });
});
