import { defaultOperatorConfig, defaultReadPolicy, type OperatorConfig, type ReadPolicy } from "../../src/config/schema.js";
import type { RequestSources } from "../../src/core/sources.js";
import { isRepoSet, type RepoSet, type ServedRepos, type ServerDeps } from "../../src/service/deps.js";
import { createRequestSources } from "../../src/sources/index.js";

/** Server deps as tests write them: a read policy alone, or a whole operator config; sources follow from it. */
export type TestDeps = Omit<ServerDeps, "operator" | "sources"> & { policy?: ReadPolicy; operator?: OperatorConfig; sources?: RequestSources };

/** The deps a server started with this policy would have: the operator config (its read policy = `policy` when given) and its sources. */
export function testDeps(d: TestDeps): ServerDeps {
  const { policy, operator, sources, ...rest } = d;
  const base = operator ?? defaultOperatorConfig();
  const resolved: OperatorConfig = { ...base, repoContext: policy ?? (operator ? base.repoContext : defaultReadPolicy()) };
  return { ...rest, operator: resolved, sources: sources ?? createRequestSources(resolved, process.env) };
}

export function testServed(served: TestDeps | RepoSet): ServedRepos {
  return isRepoSet(served as ServedRepos) ? (served as RepoSet) : testDeps(served as TestDeps);
}
