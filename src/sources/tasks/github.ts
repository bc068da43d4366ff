import { commentOf, labelNames, str, TaskSourceUnavailable, type TaskProvider } from "./types.js";
import type { RawTask, TaskFetchOptions } from "../../core/tasks.js";

/** How long one request may take before the source counts as unavailable. */
export const GITHUB_TIMEOUT_MS = 10_000;
/** Largest response body read (an issue with 100 long comments fits comfortably). */
export const MAX_GITHUB_RESPONSE_BYTES = 2 * 1024 * 1024;
/** The REST API's page size ceiling. */
const MAX_PER_PAGE = 100;
const ISSUE_NUMBER = /^#?(\d{1,10})$/;
const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

export interface GitHubProviderOptions {
  repo: string;
  apiUrl: string;
  tokenEnv: string;
  name: string;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
  fetchImpl?: typeof fetch;
}

/**
 * Reads issues (and pull requests, which GitHub serves as issues) with `GET /repos/{owner}/{repo}/issues/{n}` and
 * its `/comments`. Only numeric ids are asked for. The token comes from the environment variable the operator named,
 * is sent only over https or to a loopback host, and never appears in a message: failures are described by status
 * code alone.
 */
export function githubTaskProvider(o: GitHubProviderOptions): TaskProvider {
  const env = o.env;
  const timeoutMs = o.timeoutMs ?? GITHUB_TIMEOUT_MS;
  const doFetch = o.fetchImpl ?? fetch;
  const [owner = "", repoName = ""] = o.repo.split("/");
  const base = `${o.apiUrl.replace(/\/+$/, "")}/`;

  function headers(): Record<string, string> {
    const h: Record<string, string> = { Accept: "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "repoctx" };
    const token = env[o.tokenEnv];
    if (token && tokenAllowed(base)) h.Authorization = `Bearer ${token}`;
    return h;
  }

  /** Parsed JSON, or null on 404/410. */
  async function getJson(path: string): Promise<unknown> {
    let res: Response;
    try {
      res = await doFetch(new URL(path, base), { headers: headers(), redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
      throw new TaskSourceUnavailable(`${o.name} ${timedOut ? `did not answer within ${timeoutMs} ms` : "could not be reached"}`);
    }
    if (res.status === 404 || res.status === 410) {
      await res.body?.cancel().catch(() => undefined);
      return null;
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new TaskSourceUnavailable(`${o.name} answered HTTP ${res.status}${statusHint(res.status)}`);
    }
    const text = await readCapped(res, MAX_GITHUB_RESPONSE_BYTES, o.name);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new TaskSourceUnavailable(`${o.name} answered with a body that is not JSON`);
    }
  }

  return {
    name: o.name,
    async get(taskId: string, opts: TaskFetchOptions): Promise<RawTask | null> {
      const m = ISSUE_NUMBER.exec(taskId);
      if (!m) return null;
      if ([owner, repoName].some((p) => p === "" || p === "." || p === "..")) {
        throw new TaskSourceUnavailable(`${o.name} is misconfigured (repo must be owner/name)`);
      }
      const n = Number(m[1]);
      const issuePath = `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repoName)}/issues/${n}`;
      const issue = await getJson(issuePath);
      if (issue === null) return null;
      if (typeof issue !== "object" || Array.isArray(issue)) throw new TaskSourceUnavailable(`${o.name} answered with an unexpected issue shape`);
      const i = issue as Record<string, unknown>;
      const commentsTotal = typeof i.comments === "number" ? i.comments : null;
      let comments: RawTask["comments"] = [];
      let commentsUnavailable = false;
      if (opts.includeComments && opts.maxComments > 0 && commentsTotal !== 0) {
        try {
          const list = await getJson(`${issuePath}/comments?per_page=${Math.min(opts.maxComments, MAX_PER_PAGE)}`);
          comments = Array.isArray(list) ? list.map(commentOf).filter((c) => c !== null) : [];
        } catch (err) {
          if (!(err instanceof TaskSourceUnavailable)) throw err;
          commentsUnavailable = true;
        }
      }
      return {
        id: `#${n}`,
        title: str(i.title) ?? "",
        body: str(i.body) ?? "",
        labels: labelNames(i.labels),
        url: str(i.html_url),
        comments,
        commentsTotal,
        commentsUnavailable,
        kind: i.pull_request !== undefined && i.pull_request !== null ? "pull_request" : "issue",
        source: "github",
      };
    },
  };
}

/** A bearer token only travels encrypted, or to this machine (tests, local proxies). */
function tokenAllowed(base: string): boolean {
  const u = new URL(base);
  return u.protocol === "https:" || LOOPBACK_HOSTS.has(u.hostname);
}

function statusHint(status: number): string {
  if (status === 401) return " (the credentials were refused: check the configured token)";
  if (status === 403 || status === 429) return " (access refused or rate limited)";
  if (status >= 500) return " (server error: try again later)";
  return "";
}

async function readCapped(res: Response, cap: number, name: string): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "0");
  if (declared > cap) {
    await res.body?.cancel().catch(() => undefined);
    throw new TaskSourceUnavailable(`${name} answered with more than ${cap} bytes`);
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw new TaskSourceUnavailable(`${name} answered with more than ${cap} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
