import assert from "node:assert/strict";
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { git } from "./helpers/fixture.js";
import { openHarness, type Harness } from "./helpers/harness.js";
import { inventoryHashOf } from "./helpers/inventory-hash.js";

const SERVICE = "services/pricing/src/main/java/com/acme/pricing/QuoteService.java";
const PROD_YML = "services/pricing/src/main/resources/application-prod.yml";

describe("operator policy that allows secret-suspect files still redacts them", () => {
  let h: Harness;
  before(async () => {
    h = await openHarness({ policy: { includeSecretSuspectFiles: true, maxFileSliceLines: 10 } });
  });
  after(async () => h.close());

  test("slices of secret-suspect files come back with every secret value redacted", async () => {
    const prod = await h.call("get_file_slice", { path: PROD_YML });
    assert.equal(prod.ok, true);
    const slice = prod.data.slice as { content: string; redacted: boolean; redactionReasons: string[]; classification: { secretSuspect: boolean } };
    assert.equal(slice.classification.secretSuspect, true);
    assert.equal(slice.redacted, true);
    assert.equal(slice.content.includes("AKIAQYLPMN5HHHFPZAM2"), false);
    assert.equal(slice.content.includes("tfD2Gy6k9Cq5rTb9ZmLJ8wYxN4pQe7sVa1HcKdFu"), false);
    assert.equal((slice.content.match(/\[REDACTED\]/g) ?? []).length, 2);
    const env = await h.call("get_file_slice", { path: ".env" });
    assert.equal(JSON.stringify(env).includes("correct-horse-battery-staple"), false);
    assert.match((env.data.slice as { content: string }).content, /DB_PASSWORD=\[REDACTED\]/);
  });

  test("search includes secret-suspect files, redacted", async () => {
    const env = await h.call("search_code", { query: "secret_access_key" });
    const text = JSON.stringify(env);
    assert.ok(text.includes(PROD_YML));
    assert.equal(text.includes("tfD2Gy6k9Cq5rTb9ZmLJ8wYxN4pQe7sVa1HcKdFu"), false);
  });

  test("maxFileSliceLines truncates a slice and says where to continue", async () => {
    const env = await h.call("get_file_slice", { path: SERVICE });
    const slice = env.data.slice as { startLine: number; endLine: number; truncated: boolean };
    assert.deepEqual([slice.startLine, slice.endLine, slice.truncated], [1, 10, true]);
    assert.equal(env.truncated, true);
    assert.ok(env.warnings.some((w) => w.code === "slice_truncated" && /line 11/.test(w.message)));
  });
});

describe("freshness: changed files and moved HEAD", () => {
  let h: Harness;
  before(async () => {
    h = await openHarness();
  });
  after(async () => h.close());

  test("expectedContentHash matches while the file is unchanged", async () => {
    const hash = await inventoryHashOf(h, SERVICE);
    const env = await h.call("get_file_slice", { path: SERVICE, startLine: 1, endLine: 2, expectedContentHash: hash });
    assert.equal(env.ok, true);
    assert.equal(env.freshness, "base_commit");
    assert.ok(!env.warnings.some((w) => w.code === "stale_index"));
  });

  test("after an edit: stale_context with the old hash, working-tree content with a warning otherwise", async () => {
    const hash = await inventoryHashOf(h, SERVICE);
    const untouched = await h.call("search_code", { query: "isQuoteExpired" });
    assert.ok(!untouched.warnings.some((w) => w.code === "file_changed_since_index"), "nothing changed yet");
    appendFileSync(join(h.repo.root, SERVICE), "// edited\n");
    const stale = await h.call("get_file_slice", { path: SERVICE, expectedContentHash: hash });
    assert.equal(stale.ok, false);
    assert.equal((stale.data.error as { category: string }).category, "stale_context");
    const fresh = await h.call("get_file_slice", { path: SERVICE, startLine: 25, endLine: 25 });
    assert.equal(fresh.ok, true);
    assert.equal(fresh.freshness, "working_tree");
    assert.ok(fresh.warnings.some((w) => w.code === "file_changed_since_index"));
    assert.match((fresh.data.slice as { content: string }).content, /25\| \/\/ edited/);
    assert.notEqual((fresh.data.slice as { contentHash: string }).contentHash, hash);
    const search = await h.call("search_code", { query: "isQuoteExpired" });
    const w = search.warnings.find((x) => x.code === "file_changed_since_index");
    assert.ok(w, "search results from the base index say the file changed");
    assert.match(w.message, /1 file\(s\).*QuoteService\.java/);
    assert.equal(w.message.includes("QuoteServiceTest"), false, "the unchanged test file is not listed");
  });

  test("a new commit makes every envelope carry stale_index", async () => {
    writeFileSync(join(h.repo.root, "CHANGELOG.md"), "# Changes\n");
    git(h.repo.root, ["add", "CHANGELOG.md"]);
    git(h.repo.root, ["commit", "-q", "-m", "Add changelog"]);
    await new Promise((r) => setTimeout(r, 5));
    for (const [tool, args] of [["search_code", { query: "quote" }], ["inspect_index", {}]] as const) {
      const env = await h.call(tool, args);
      assert.ok(env.warnings.some((w) => w.code === "stale_index"), tool);
    }
  });
});
