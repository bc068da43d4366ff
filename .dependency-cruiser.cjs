/**
 * The layer rules of src/ (README "Layout"), checked by `npm run lint:layers` inside `npm test`: a folder that
 * imports what it must not fails the build. Type-only imports count: a type is part of what a layer depends on.
 */
const layer = (name) => `^src/${name}/`;
const forbid = (name, comment, from, to) => ({ name, comment, severity: "error", from: { path: from }, to });

module.exports = {
  forbidden: [
    forbid("core-imports-nothing", "src/core is the shared vocabulary: it imports nothing from src/ outside itself", layer("core"), {
      path: "^src/",
      pathNot: layer("core"),
    }),
    forbid("store-imports-only-core", "the store implements the Store contract over core types alone", layer("store"), {
      path: "^src/",
      pathNot: [layer("core"), layer("store")],
    }),
    forbid("policy-imports-only-core", "policy is pure functions over core types", layer("policy"), {
      path: "^src/",
      pathNot: [layer("core"), layer("policy")],
    }),
    forbid("config-imports-only-core", "configuration is parsed once at start from core vocabulary", layer("config"), {
      path: "^src/",
      pathNot: [layer("core"), layer("config")],
    }),
    forbid("sources-below-service", "request-time sources are injected into the service; they never call queries or the protocol", layer("sources"), {
      path: ["^src/(query|service|mcp|cli|eval)/"],
    }),
    forbid("indexer-below-query", "the indexer writes the index; it never imports what reads it, nor request-time sources (they are injected)", layer("indexer"), {
      path: ["^src/(query|service|sources|mcp|cli|eval)/"],
    }),
    forbid("query-below-service", "queries are pure functions over the Store; the call pipeline and the protocol sit above them", layer("query"), {
      path: ["^src/(service|mcp|cli|eval)/"],
    }),
    forbid("service-below-protocol", "the call pipeline is shared by MCP and the CLI and imports neither", layer("service"), {
      path: ["^src/(mcp|cli|eval)/"],
    }),
    forbid("mcp-through-service", "the protocol layer reaches the index only through src/service", layer("mcp"), {
      path: ["^src/(indexer|store|sources|cli|eval)/"],
    }),
    forbid("eval-below-service", "the evaluation harness runs queries directly, never through the protocol or the CLI", layer("eval"), {
      path: ["^src/(service|mcp|cli)/"],
    }),
    {
      name: "no-cycle-across-folders",
      comment: "an import cycle may not cross two top-level folders of src/",
      severity: "error",
      from: { path: "^src/([^/]+)/" },
      to: { circular: true, viaSomeNot: "^src/$1/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"], extensions: [".ts", ".js"] },
  },
};
