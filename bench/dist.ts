/**
 * The bench measures the code that ships: it loads repoctx's compiled modules from dist/ (built by `npm run bench`
 * before it starts), typed by their sources in src/. Nothing here changes how repoctx behaves.
 */
import { fileURLToPath } from "node:url";
import type * as PipelineModule from "../src/indexer/pipeline.js";
import type * as SqliteStoreModule from "../src/store/sqlite/sqlite-store.js";
import type * as OpenStoreModule from "../src/store/open.js";
import type * as RunToolModule from "../src/service/run-tool.js";
import type * as ToolsModule from "../src/mcp/tools/index.js";
import type * as ResourcesModule from "../src/mcp/resources/index.js";
import type * as SchemaModule from "../src/config/schema.js";
import type * as LogModule from "../src/core/log.js";
import type * as GitHeadModule from "../src/sources/git-head.js";
import type * as SourcesModule from "../src/sources/index.js";
import type * as IndexFormatModule from "../src/core/index-format.js";
import type * as OverlayModule from "../src/sources/work-tree-overlay.js";
import type * as TokensModule from "../src/query/context-package/tokens.js";
import type * as RankedModule from "../src/query/hybrid/search.js";

export const REPO_ROOT = fileURLToPath(new URL("../", import.meta.url));
const DIST = new URL("../dist/", import.meta.url);
export const CLI_PATH = fileURLToPath(new URL("cli/main.js", DIST));

async function load<T>(relative: string): Promise<T> {
  return (await import(new URL(relative, DIST).href)) as T;
}

export const loadPipeline = (): Promise<typeof PipelineModule> => load("indexer/pipeline.js");
export const loadSqliteStore = (): Promise<typeof SqliteStoreModule> => load("store/sqlite/sqlite-store.js");
export const loadOpenStore = (): Promise<typeof OpenStoreModule> => load("store/open.js");
export const loadRunTool = (): Promise<typeof RunToolModule> => load("service/run-tool.js");
export const loadTools = (): Promise<typeof ToolsModule> => load("mcp/tools/index.js");
export const loadResources = (): Promise<typeof ResourcesModule> => load("mcp/resources/index.js");
export const loadSchema = (): Promise<typeof SchemaModule> => load("config/schema.js");
export const loadLog = (): Promise<typeof LogModule> => load("core/log.js");
export const loadGitHead = (): Promise<typeof GitHeadModule> => load("sources/git-head.js");
export const loadSources = (): Promise<typeof SourcesModule> => load("sources/index.js");
export const loadIndexFormat = (): Promise<typeof IndexFormatModule> => load("core/index-format.js");
export const loadOverlay = (): Promise<typeof OverlayModule> => load("sources/work-tree-overlay.js");
export const loadTokens = (): Promise<typeof TokensModule> => load("query/context-package/tokens.js");
export const loadRanked = (): Promise<typeof RankedModule> => load("query/hybrid/search.js");

/** Server deps for a bench: the default operator policy and its sources, as `repoctx serve` would have them. */
export async function benchDeps<T extends object>(base: T) {
  const [{ defaultOperatorConfig }, { createRequestSources }] = await Promise.all([loadSchema(), loadSources()]);
  const operator = defaultOperatorConfig();
  return { ...base, operator, sources: createRequestSources(operator, {}) };
}
