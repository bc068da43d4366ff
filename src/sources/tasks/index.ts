import type { TaskSource } from "../../config/schema.js";
import type { TaskFetchOptions, TaskLookup, TaskSources } from "../../core/tasks.js";
import { githubTaskProvider } from "./github.js";
import { localTaskProvider } from "./local.js";
import { TaskSourceUnavailable, type TaskProvider } from "./types.js";

export interface ProviderEnv {
  /** Where a GitHub source's token is read (by the variable name the operator gave), at each request. */
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/** One provider per configured source, in the operator's order. A relative `dir` is taken from the server's working directory. */
export function createTaskProviders(sources: readonly TaskSource[], opts: ProviderEnv): TaskProvider[] {
  return sources.map((s, i) => {
    const name = `task source ${i + 1} (${s.type})`;
    if (s.type === "local") return localTaskProvider(s.dir, name);
    return githubTaskProvider({ repo: s.repo, apiUrl: s.apiUrl, tokenEnv: s.tokenEnv, name, ...opts });
  });
}

/**
 * Asks each source in order; the first that has the task wins. A source that cannot answer is skipped (and named)
 * so a later one may still serve; when none has the task, the caller can tell "nobody has it" from "some could not say".
 */
export async function lookupTask(providers: readonly TaskProvider[], taskId: string, opts: TaskFetchOptions): Promise<TaskLookup> {
  const skipped: string[] = [];
  for (const p of providers) {
    try {
      const task = await p.get(taskId, opts);
      if (task) return { found: true, task, provider: p.name, skipped };
    } catch (err) {
      if (!(err instanceof TaskSourceUnavailable)) throw err;
      skipped.push(err.message);
    }
  }
  return { found: false, unavailable: skipped };
}

/** The operator's task sources as the one reader the service is given. */
export function createTaskSources(sources: readonly TaskSource[], opts: ProviderEnv): TaskSources {
  const providers = createTaskProviders(sources, opts);
  return { count: providers.length, lookup: (taskId, fetchOpts) => lookupTask(providers, taskId, fetchOpts) };
}
