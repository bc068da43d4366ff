import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { defaultReadPolicy, type ReadPolicy } from "../../src/config/schema.js";
import { buildIndex, type IndexResult } from "../../src/indexer/pipeline.js";
import { silentLogger, type Logger } from "../../src/core/log.js";
import type { Envelope } from "../../src/service/envelope.js";
import { createAuditSink } from "../../src/service/audit.js";
import { createServer } from "../../src/mcp/server.js";
import { SqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { buildGoldenRepo, type BuiltRepo } from "./fixture.js";
import { currentHead } from "../../src/sources/git-head.js";
import type { RepoSet } from "../../src/service/deps.js";
import { testServed, type TestDeps } from "./deps.js";

export interface Harness {
  repo: BuiltRepo;
  store: SqliteStore;
  storePath: string;
  auditFile: string;
  index: IndexResult;
  client: Client;
  call(tool: string, args?: Record<string, unknown>, meta?: Record<string, unknown>): Promise<Envelope & { isError: boolean }>;
  close(): Promise<void>;
}

export async function openClient(deps: TestDeps | RepoSet): Promise<Client> {
  const server = createServer(testServed(deps));
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: "repoctx-test", version: "0.0.0" });
  await client.connect(clientTransport);
  return client;
}

/** Golden repository, indexed into a fresh SQLite store, served to a real SDK Client over a linked in-memory transport. */
export async function openHarness(opts: { policy?: Partial<ReadPolicy>; logger?: Logger } = {}): Promise<Harness> {
  const repo = buildGoldenRepo();
  const storeDir = mkdtempSync(join(tmpdir(), "repoctx-store-"));
  const storePath = join(storeDir, "index.db");
  const store = SqliteStore.open(storePath);
  const policy = { ...defaultReadPolicy(), ...opts.policy };
  const index = await buildIndex({ root: repo.root, store, maxFileBytes: policy.maxIndexedFileBytes });
  const auditFile = join(storeDir, "audit.jsonl");
  const logger = opts.logger ?? silentLogger;
  const client = await openClient({
    store,
    root: index.repo.rootPath,
    policy,
    logger,
    readHead: () => currentHead(index.repo.rootPath),
    audit: createAuditSink({ store, jsonlFile: auditFile, preview: policy.auditPreview, logger }),
  });
  return {
    repo,
    store,
    storePath,
    auditFile,
    index,
    client,
    async call(tool, args = {}, meta) {
      const res = await client.callTool({ name: tool, arguments: { verbosity: "full", ...args }, ...(meta ? { _meta: meta } : {}) });
      const text = (res.content as { type: string; text: string }[])[0]!.text;
      const env = JSON.parse(text) as Envelope;
      return { ...env, isError: res.isError === true };
    },
    async close() {
      await client.close();
      await store.close();
      rmSync(storeDir, { recursive: true, force: true });
      repo.cleanup();
    },
  };
}
