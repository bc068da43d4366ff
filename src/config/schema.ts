import { z } from "zod";
import { INSTRUCTION_ACTIONS, INSTRUCTION_CATEGORIES } from "../core/instructions.js";

/** Upper bounds an operator may set; beyond them a single call could pull a whole repository into a prompt. */
const MAX_SLICE_LINES_CEILING = 5000;
const MAX_SEARCH_RESULTS_CEILING = 200;
const MAX_FILE_BYTES_CEILING = 64 * 1024 * 1024;

export const DEFAULT_MAX_FILE_SLICE_LINES = 300;
export const DEFAULT_MAX_SEARCH_RESULTS = 50;
export const DEFAULT_MAX_INDEXED_FILE_BYTES = 1024 * 1024;

/**
 * The operator's read policy (the seed's `repoContext:` block). It is loaded from the server's own
 * configuration, never from a file inside the served repository.
 */
export const ReadPolicySchema = z.strictObject({
  maxFileSliceLines: z.number().int().min(1).max(MAX_SLICE_LINES_CEILING).default(DEFAULT_MAX_FILE_SLICE_LINES),
  maxSearchResults: z.number().int().min(1).max(MAX_SEARCH_RESULTS_CEILING).default(DEFAULT_MAX_SEARCH_RESULTS),
  includeSecretSuspectFiles: z.boolean().default(false),
  includeGeneratedFilesByDefault: z.boolean().default(false),
  allowIssueComments: z.boolean().default(true),
  allowExternalDocs: z.boolean().default(false),
  allowedMetadataSources: z
    .array(z.enum(["codeowners", "service-catalog", "issue-tracker"]))
    .max(16)
    .default(["codeowners", "service-catalog", "issue-tracker"]),
  maxIndexedFileBytes: z.number().int().min(1).max(MAX_FILE_BYTES_CEILING).default(DEFAULT_MAX_INDEXED_FILE_BYTES),
  /** Adds a short redacted preview of each call's arguments to the audit log (off: hashes only). */
  auditPreview: z.boolean().default(false),
});

export type ReadPolicy = z.infer<typeof ReadPolicySchema>;


const MAX_OPERATOR_RULES = 100;
const MAX_RULE_TEXT = 1000;
const MAX_RULE_GLOBS = 50;
const MAX_GLOB_CHARS = 500;
const MAX_INSTRUCTION_FILE_BYTES_CEILING = 1024 * 1024;

/** One operator rule (organization or runtime layer): its words plus the claims the resolver compares. */
export const OperatorRuleSchema = z.strictObject({
  id: z.string().min(1).max(100).regex(/^[\w.:-]+$/),
  text: z.string().min(1).max(MAX_RULE_TEXT),
  category: z.enum(INSTRUCTION_CATEGORIES).default("other"),
  forbidPaths: z.array(z.string().min(1).max(MAX_GLOB_CHARS)).max(MAX_RULE_GLOBS).default([]),
  forbidActions: z.array(z.enum(INSTRUCTION_ACTIONS)).max(INSTRUCTION_ACTIONS.length).default([]),
  requireActions: z.array(z.enum(INSTRUCTION_ACTIONS)).max(INSTRUCTION_ACTIONS.length).default([]),
});
export type OperatorRule = z.infer<typeof OperatorRuleSchema>;

/**
 * The operator's instruction layers above the repository (the seed's organization and runtime policy) and the
 * limits on reading repository instruction files. Platform safety rules are built in and cannot be removed here.
 */
export const InstructionPolicySchema = z.strictObject({
  organization: z.array(OperatorRuleSchema).max(MAX_OPERATOR_RULES).default([]),
  runtime: z.array(OperatorRuleSchema).max(MAX_OPERATOR_RULES).default([]),
  maxInstructionFileBytes: z.number().int().min(256).max(MAX_INSTRUCTION_FILE_BYTES_CEILING).default(20_000),
  maxInstructionTotalBytes: z.number().int().min(256).max(4 * MAX_INSTRUCTION_FILE_BYTES_CEILING).default(60_000),
});
export type InstructionPolicy = z.infer<typeof InstructionPolicySchema>;

/** Where task and issue text comes from: configured by the operator, never discovered from the repository. */
export const TaskSourceSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("local"),
    /** A folder of snapshots: `<id>.json` as `gh issue view --json number,title,body,comments,labels,url` writes it, or `<id>.md` with front matter. */
    dir: z.string().min(1).max(4096),
  }),
  z.strictObject({
    type: z.literal("github"),
    /** owner/name of the repository whose issues are read. */
    repo: z.string().regex(/^[\w.-]{1,100}\/[\w.-]{1,100}$/),
    apiUrl: z.url().default("https://api.github.com"),
    /** Environment variable holding the token (never the token itself in this file). */
    tokenEnv: z.string().regex(/^[A-Z_][A-Z0-9_]{0,100}$/).default("GITHUB_TOKEN"),
  }),
]);
export type TaskSource = z.infer<typeof TaskSourceSchema>;

const MAX_EMBEDDING_DIMENSIONS = 8192;
const MIN_EMBEDDING_TIMEOUT_MS = 100;
const MAX_EMBEDDING_TIMEOUT_MS = 120_000;
export const DEFAULT_EMBEDDING_TIMEOUT_MS = 30_000;

/**
 * Where embeddings come from. `builtin` (the default) is the model trained on the repository at index time (when
 * `train` is on): no
 * download, no key, nothing leaves the machine. `openai_compatible` sends file and query text to an operator's
 * `/v1/embeddings` endpoint (Ollama, llama.cpp, TEI, a hosted API), so it is only ever the operator's choice.
 */
export const SemanticConfigSchema = z
  .strictObject({
    provider: z.enum(["builtin", "openai_compatible"]).default("builtin"),
    /**
     * Train the repository's own embedding at index time, which `search_code` with `semantic: true` ranks with.
     * Default: off with the builtin provider (no default query reads it; it lowers localization on the benchmark
     * and costs a quarter of a small repository's index time), on with an endpoint.
     */
    train: z.boolean().optional(),
    /** The endpoint's base URL; `/v1/embeddings` is appended (or `/embeddings` to a URL ending in `/v1`). */
    url: z.url({ protocol: /^https?$/ }).max(2048).optional(),
    model: z.string().min(1).max(200).optional(),
    /** Environment variable holding the API key (never the key itself in this file); none for local servers. */
    apiKeyEnv: z.string().regex(/^[A-Z_][A-Z0-9_]{0,100}$/).optional(),
    /** Requested vector length, for models that can shorten their output; responses must match it. */
    dimensions: z.number().int().min(1).max(MAX_EMBEDDING_DIMENSIONS).optional(),
    timeoutMs: z.number().int().min(MIN_EMBEDDING_TIMEOUT_MS).max(MAX_EMBEDDING_TIMEOUT_MS).default(DEFAULT_EMBEDDING_TIMEOUT_MS),
  })
  .superRefine((c, ctx) => {
    if (c.provider !== "openai_compatible") return;
    if (!c.url) ctx.addIssue({ code: "custom", path: ["url"], message: "required when provider is openai_compatible" });
    if (!c.model) ctx.addIssue({ code: "custom", path: ["model"], message: "required when provider is openai_compatible" });
  });
export type SemanticConfig = z.infer<typeof SemanticConfigSchema>;

const MAX_HTTP_TOKENS = 100;
/** Shorter bearer tokens are refused: a token is the only thing between the network and the served code. */
export const MIN_HTTP_TOKEN_CHARS = 16;
const MAX_HTTP_TOKEN_CHARS = 4096;
const MAX_ALLOWED_ORIGINS = 100;
export const DEFAULT_HTTP_MAX_REQUEST_BYTES = 1024 * 1024;
const MAX_HTTP_REQUEST_BYTES_CEILING = 64 * 1024 * 1024;
export const DEFAULT_HTTP_RATE_LIMIT_PER_MINUTE = 600;
const MAX_HTTP_RATE_LIMIT_PER_MINUTE = 1_000_000;
export const DEFAULT_HTTP_MAX_SESSIONS = 500;
const MAX_HTTP_SESSIONS_CEILING = 100_000;
export const DEFAULT_HTTP_SESSION_IDLE_SECONDS = 15 * 60;
const MAX_HTTP_SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60;
const MAX_HTTP_WORKERS = 64;

/** One bearer token: a name for logs and session ownership, and the secret itself or the variable holding it. */
export const HttpTokenSchema = z
  .strictObject({
    name: z.string().min(1).max(100).regex(/^[\w.:@-]+$/),
    /** The token itself; prefer `tokenEnv`, so the policy file holds no secret. */
    token: z.string().min(MIN_HTTP_TOKEN_CHARS).max(MAX_HTTP_TOKEN_CHARS).optional(),
    /** Environment variable holding the token. */
    tokenEnv: z.string().regex(/^[A-Z_][A-Z0-9_]{0,100}$/).optional(),
  })
  .refine((t) => (t.token === undefined) !== (t.tokenEnv === undefined), { message: "give exactly one of token and tokenEnv" });
export type HttpToken = z.infer<typeof HttpTokenSchema>;

/**
 * `repoctx serve --http`: who may call (bearer tokens; `REPOCTX_HTTP_TOKENS` adds more), which browser origins may
 * (besides the loopback ones on a loopback host), and the limits each request and token is held to.
 */
export const HttpConfigSchema = z.strictObject({
  tokens: z
    .array(HttpTokenSchema)
    .max(MAX_HTTP_TOKENS)
    .default([])
    .refine((ts) => new Set(ts.map((t) => t.name)).size === ts.length, { message: "token names must be unique" }),
  /** Exact origins (`https://app.example.com`) whose browser requests are served. */
  allowedOrigins: z.array(z.url({ protocol: /^https?$/ }).max(2048)).max(MAX_ALLOWED_ORIGINS).default([]),
  maxRequestBytes: z.number().int().min(1024).max(MAX_HTTP_REQUEST_BYTES_CEILING).default(DEFAULT_HTTP_MAX_REQUEST_BYTES),
  rateLimitPerMinute: z.number().int().min(1).max(MAX_HTTP_RATE_LIMIT_PER_MINUTE).default(DEFAULT_HTTP_RATE_LIMIT_PER_MINUTE),
  maxSessions: z.number().int().min(1).max(MAX_HTTP_SESSIONS_CEILING).default(DEFAULT_HTTP_MAX_SESSIONS),
  sessionIdleSeconds: z.number().int().min(1).max(MAX_HTTP_SESSION_IDLE_SECONDS).default(DEFAULT_HTTP_SESSION_IDLE_SECONDS),
  /** Worker threads answering tools/call, each with its own store connection; 0: the server's thread answers. Default: one per core, at most 8. */
  workers: z.number().int().min(0).max(MAX_HTTP_WORKERS).optional(),
});
export type HttpConfig = z.infer<typeof HttpConfigSchema>;

export const PolicyFileSchema = z.strictObject({
  repoContext: ReadPolicySchema.default(ReadPolicySchema.parse({})),
  instructions: InstructionPolicySchema.default(InstructionPolicySchema.parse({})),
  taskSources: z.array(TaskSourceSchema).max(10).default([]),
  semantic: SemanticConfigSchema.default(SemanticConfigSchema.parse({})),
  http: HttpConfigSchema.default(HttpConfigSchema.parse({})),
});
export type OperatorConfig = z.infer<typeof PolicyFileSchema>;

export function defaultOperatorConfig(): OperatorConfig {
  return PolicyFileSchema.parse({});
}

export function defaultReadPolicy(): ReadPolicy {
  return ReadPolicySchema.parse({});
}
