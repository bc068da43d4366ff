import type { RawTask } from "../../core/tasks.js";
import type { LabelInput } from "../../policy/labels.js";
import { labelInputOf, type QueryContext } from "../context.js";
import type { Clipper } from "./clipper.js";
import { MAX_ITEM_CHARS, MAX_LINKS, MAX_PATH_LOOKUPS, MAX_URL_CHARS } from "./limits.js";
import { FENCE, splitLines } from "./sections.js";
import type { LinkType, TaskLink } from "./types.js";

// Links

const URL_RE = /\bhttps?:\/\/[^\s<>()[\]"'`]{1,1000}/g;
const REPO_URI = /\brepo:\/\/docs\/[^\s<>()[\]"'`]{1,500}/g;
const MD_LINK = /\[([^\]\n]{0,200})\]\(([^)\s]{1,500})\)/g;
const BACKTICK = /`([^`\s]{1,300})`/g;
const BARE_PATH = /(?<![\w/.:@-])((?:\.\/)?(?:[\w@.+-]+\/)+[\w@+-][\w@.+-]*\.[A-Za-z][A-Za-z0-9]{0,9})(?![\w/])/g;
const ISSUE_REF = /(?<![\w&/#])(?:([\w.-]{1,100}\/[\w.-]{1,100}))?#(\d{1,7})\b/g;
const PATH_LIKE = /^(?:\.\/)?[\w@.+-]+(?:\/[\w@.+-]+)*\/?$/;
/** A file name without a folder (`pom.xml`, `AGENTS.md`): only with a common extension, and only kept when the index has it at the root. */
const SINGLE_FILE =
  /^[\w@+-]+(?:\.[\w@+-]+)?\.(?:md|mdx|rst|txt|adoc|java|kt|kts|scala|groovy|ts|tsx|js|jsx|mjs|cjs|py|go|rs|rb|php|cs|c|h|cc|cpp|hpp|swift|json|ya?ml|toml|xml|gradle|sql|sh|properties|lock|cfg|ini|mod|sum)$/;
const DOC_EXT = /\.(?:md|mdx|markdown|rst|adoc|asciidoc|txt)$/i;

/** A link as found in the text, before it is checked against the index. */
export interface LinkDraft {
  type: LinkType;
  target: string;
  where: string;
  line: number;
  title?: string;
  candidatePath?: string;
}

/** A URL as a link: GitHub issue and pull request URLs typed as such, trailing punctuation dropped. */
function urlLink(url: string, where: string, line: number, title?: string): LinkDraft {
  const target = url.replace(/[.,;:!?]+$/, "");
  const gh = /^https?:\/\/[^/\s]+\/[\w.-]+\/[\w.-]+\/(issues|pull)\/\d+/.exec(target);
  const type: LinkType = gh ? (gh[1] === "pull" ? "pull_request" : "issue") : "url";
  return { type, target, where, line, ...(title ? { title } : {}) };
}

/** A repository-relative path, or null when the token does not look like one (or tries to leave the root). */
function repoPathOf(token: string, allowSingle: boolean): string | null {
  if (token.includes("://") || token.startsWith("/") || token.startsWith("~") || token.startsWith("-")) return null;
  if (!PATH_LIKE.test(token)) return null;
  const path = token.replace(/^\.\//, "").replace(/\/+$/, "");
  if (path === "" || path.split("/").some((seg) => seg === ".." || seg === ".")) return null;
  if (!path.includes("/") && !(allowSingle && SINGLE_FILE.test(path))) return null;
  return path;
}

/** Links in one text (outside code fences): markdown links, URLs, doc URIs, repository paths and issue references. */
function linksOfText(text: string, where: string): LinkDraft[] {
  const out: LinkDraft[] = [];
  let inCode = false;
  splitLines(text).forEach((raw, i) => {
    const line = i + 1;
    if (FENCE.test(raw)) {
      inCode = !inCode;
      return;
    }
    if (inCode) return;
    let rest = raw;
    for (const m of raw.matchAll(MD_LINK)) {
      const [, title, target = ""] = m;
      if (/^https?:\/\//.test(target)) out.push(urlLink(target, where, line, title));
      else if (target.startsWith("repo://docs/")) out.push({ type: "doc", target, where, line, ...(title ? { title } : {}) });
      else {
        const p = repoPathOf(target.replace(/#.*$/, ""), true);
        if (p) out.push({ type: DOC_EXT.test(p) ? "doc" : "repo_path", target: p, where, line, candidatePath: p, ...(title ? { title } : {}) });
      }
      rest = rest.replace(m[0], " ");
    }
    for (const m of rest.matchAll(URL_RE)) out.push(urlLink(m[0], where, line));
    for (const m of rest.matchAll(REPO_URI)) out.push({ type: "doc", target: m[0].replace(/[.,;:!?]+$/, ""), where, line });
    rest = rest.replace(URL_RE, " ").replace(REPO_URI, " ");
    for (const m of rest.matchAll(BACKTICK)) {
      const p = repoPathOf(m[1] ?? "", true);
      if (p) out.push({ type: DOC_EXT.test(p) ? "doc" : "repo_path", target: p, where, line, candidatePath: p });
    }
    const outsideTicks = rest.replace(BACKTICK, " ");
    for (const m of outsideTicks.matchAll(BARE_PATH)) {
      const p = repoPathOf(m[1] ?? "", false);
      if (p) out.push({ type: DOC_EXT.test(p) ? "doc" : "repo_path", target: p, where, line, candidatePath: p });
    }
    if (!/^\s{0,3}#{1,6}\s/.test(raw)) {
      for (const m of outsideTicks.matchAll(ISSUE_REF)) out.push({ type: "issue", target: m[0], where, line });
    }
  });
  return out;
}

/** Link drafts of the title, the body and the comments shown, in that order. */
export function linkDraftsOf(raw: RawTask, shownComments: RawTask["comments"]): LinkDraft[] {
  return [
    ...linksOfText(raw.title, "title"),
    ...linksOfText(raw.body, "body"),
    ...shownComments.flatMap((c, i) => linksOfText(c.body, `comment:${i + 1}`)),
  ];
}

/**
 * Links deduplicated and bounded, each checked against the index: whether the path or document exists, its indexed
 * file (whose trust label goes into `labels`) and document URI, and whether it sits in suspicious text.
 */
export async function resolveLinks(
  ctx: QueryContext,
  drafts: readonly LinkDraft[],
  suspiciousAt: ReadonlySet<string>,
  labels: Map<string, LabelInput>,
  clip: Clipper,
): Promise<{ links: TaskLink[]; truncated: boolean }> {
  const seen = new Set<string>();
  const links: TaskLink[] = [];
  let lookups = 0;
  let truncated = false;
  for (const d of drafts) {
    const key = `${d.type === "doc" || d.type === "repo_path" ? "path" : d.type}:${d.target}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (links.length >= MAX_LINKS) {
      truncated = true;
      break;
    }
    const link: TaskLink = { type: d.type, target: clip.str(d.target, MAX_URL_CHARS), where: d.where, line: d.line, exists: null };
    if (d.title) link.title = clip.str(d.title, MAX_ITEM_CHARS);
    if (suspiciousAt.has(`${d.where}:${d.line}`)) link.inSuspiciousText = true;
    if (d.type === "doc" && d.target.startsWith("repo://docs/")) {
      const docId = d.target.slice("repo://docs/".length);
      const doc = await ctx.store.getDoc(ctx.index.id, docId);
      link.exists = doc !== null;
      link.uri = d.target;
      if (doc) link.path = doc.path;
    } else if (d.candidatePath !== undefined) {
      if (lookups >= MAX_PATH_LOOKUPS) {
        link.exists = null;
      } else {
        lookups++;
        const p = d.candidatePath;
        const doc = await ctx.store.getDoc(ctx.index.id, p);
        const file = await ctx.store.getFile(ctx.index.id, p);
        if (doc) {
          link.type = "doc";
          link.uri = `repo://docs/${doc.docId}`;
        }
        if (file) {
          labels.set(file.path, labelInputOf(file));
          link.path = file.path;
          link.exists = true;
        } else {
          link.exists = (await ctx.store.listFiles(ctx.index.id, { pathPrefix: `${p}/`, includeSkipped: true })).length > 0;
        }
        // A bare file name (`QuoteService.java`) says nothing about where it is: kept only when the root has it.
        if (!p.includes("/") && !link.exists) continue;
      }
    }
    if (link.path !== undefined && !labels.has(link.path)) {
      const file = await ctx.store.getFile(ctx.index.id, link.path);
      if (file) labels.set(file.path, labelInputOf(file));
    }
    links.push(link);
  }
  return { links, truncated };
}
