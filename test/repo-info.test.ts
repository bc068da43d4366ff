import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { repoIdFromRemote, sanitizeRepoId } from "../src/indexer/repo-info.js";

describe("repository id from the origin remote", () => {
  const cases: [string, string | null][] = [
    ["git@github.com:acme/pricing-service.git", "acme/pricing-service"],
    ["https://github.com/acme/pricing-service.git", "acme/pricing-service"],
    ["https://github.com/acme/pricing-service", "acme/pricing-service"],
    ["https://user:token@gitlab.example.com/group/sub/project.git", "sub/project"],
    ["ssh://git@git.example.com:2222/acme/tools.git", "acme/tools"],
    ["/work/main", null],
    ["../sibling/repo", null],
    ["file:///srv/git/repo.git", null],
    ["C:\\\\repos\\\\thing", null],
  ];
  for (const [url, expected] of cases) {
    test(`${url} -> ${expected}`, () => assert.equal(repoIdFromRemote(url), expected));
  }

  test("credentials in a remote never reach the id", () => {
    assert.equal(repoIdFromRemote("https://user:s3cret@host.example/acme/x.git")?.includes("s3cret"), false);
  });

  test("overrides are sanitized", () => {
    assert.equal(sanitizeRepoId("acme/x"), "acme/x");
    assert.equal(sanitizeRepoId("  weird name!! "), "weird-name-");
    assert.equal(sanitizeRepoId(""), "repo");
  });
});
