import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { queryHash } from "../src/service/audit.js";
import { openHarness, type Harness } from "./helpers/harness.js";

describe("audit log: one record per tool call, hashes not queries", () => {
  let h: Harness;
  before(async () => {
    h = await openHarness();
  });
  after(async () => h.close());

  test("a call is recorded with run and step ids from _meta, counts, outcome and a hash of the arguments", async () => {
    const env = await h.call("search_code", { query: "isQuoteExpired" }, { runId: "run-42", stepId: "step-7" });
    assert.equal(env.ok, true);
    const [rec] = await h.store.listAudit({ limit: 1 });
    assert.ok(rec);
    assert.equal(rec.tool, "search_code");
    assert.equal(rec.runId, "run-42");
    assert.equal(rec.stepId, "step-7");
    assert.equal(rec.outcome, "ok");
    assert.equal(rec.mode, "hybrid");
    assert.equal(rec.resultCount, env.evidence.length);
    assert.equal(rec.truncated, false);
    assert.equal(rec.indexVersion, env.indexVersion);
    assert.equal(rec.repoId, "acme/pricing-service");
    assert.ok(rec.latencyMs >= 0);
    assert.equal(rec.queryHash, queryHash({ query: "isQuoteExpired", mode: "hybrid", caseSensitive: false, regex: false }));
    assert.equal(rec.preview, null, "no preview unless the operator enables it");
  });

  test("the same arguments hash the same whatever their order; different ones differ", () => {
    assert.equal(queryHash({ a: 1, b: [1, { c: 2, d: 3 }] }), queryHash({ b: [1, { d: 3, c: 2 }], a: 1 }));
    // Arguments nested far deeper than any tool takes hash without exhausting the stack.
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.match(queryHash({ arguments: deep }), /^sha256:[0-9a-f]{64}$/);
    assert.notEqual(queryHash({ query: "a" }), queryHash({ query: "b" }));
  });

  test("failures are recorded with their category; the raw query is in neither the store nor the JSONL file", async () => {
    await h.call("get_file_slice", { path: "../outside-secret.txt" });
    await h.call("search_code", { query: "(unclosed", regex: true });
    const recs = await h.store.listAudit({ limit: 2 });
    assert.deepEqual(recs.map((r) => [r.tool, r.outcome]), [
      ["search_code", "invalid_input"],
      ["get_file_slice", "query_rejected"],
    ]);
    const lines = readFileSync(h.auditFile, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(lines.length, 3);
    assert.deepEqual(lines.map((l) => l.tool), ["search_code", "get_file_slice", "search_code"]);
    const everything = JSON.stringify(await h.store.listAudit({ limit: 100 })) + readFileSync(h.auditFile, "utf8");
    for (const raw of ["isQuoteExpired", "outside-secret", "unclosed"]) assert.equal(everything.includes(raw), false, raw);
  });

  test("filters by tool and time", async () => {
    assert.equal((await h.store.listAudit({ tool: "get_file_slice", limit: 10 })).length, 1);
    assert.equal((await h.store.listAudit({ since: "2999-01-01T00:00:00Z", limit: 10 })).length, 0);
  });
});

describe("audit preview, when the operator enables it, is short and redacted", () => {
  let h: Harness;
  before(async () => {
    h = await openHarness({ policy: { auditPreview: true } });
  });
  after(async () => h.close());

  test("a secret in the arguments never reaches the audit log", async () => {
    const token = `ghp_${"a1B2c3D4e5".repeat(4).slice(0, 36)}`;
    await h.call("search_code", { query: `token = "${token}"` });
    const [rec] = await h.store.listAudit({ limit: 1 });
    assert.ok(rec?.preview);
    assert.match(rec.preview, /\[REDACTED\]/);
    assert.equal(rec.preview.includes(token), false);
    assert.equal(readFileSync(h.auditFile, "utf8").includes(token), false);
  });
});
