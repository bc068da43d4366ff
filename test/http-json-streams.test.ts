import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createServer, type Server as NodeHttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { test } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import { answeredJsonStreams, releaseAnsweredJsonStreams } from "../src/mcp/transports/json-streams.js";

const CALLS = 12;

/** One real SDK session in JSON-response mode behind a real HTTP server; `release` runs after each request. */
async function session(release: boolean): Promise<{ transport: StreamableHTTPServerTransport; client: Client; close: () => Promise<void> }> {
  const mcp = new McpServer({ name: "t", version: "0" });
  mcp.registerTool("echo", { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: "text", text: text.repeat(100) }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });
  await mcp.connect(transport);
  const http: NodeHttpServer = createServer((req, res) => {
    void transport.handleRequest(req, res).then(() => {
      if (release) releaseAnsweredJsonStreams(transport);
    });
  });
  await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
  const client = new Client({ name: "t", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`)));
  return {
    transport,
    client,
    close: async () => {
      await client.close();
      await mcp.close();
      await new Promise((r) => http.close(r));
    },
  };
}

async function callMany(client: Client): Promise<void> {
  for (let i = 0; i < CALLS; i++) {
    const r = await client.callTool({ name: "echo", arguments: { text: `call ${i} ` } });
    assert.match(JSON.stringify(r.content), new RegExp(`call ${i} `));
  }
  // Calls side by side on one session: none loses its answer to another's release.
  const side = await Promise.all(Array.from({ length: 6 }, (_, i) => client.callTool({ name: "echo", arguments: { text: `side ${i} ` } })));
  side.forEach((r, i) => assert.match(JSON.stringify(r.content), new RegExp(`side ${i} `)));
}

test("the SDK's JSON-response transport keeps every answered response of a session (the leak the release works around)", async () => {
  const s = await session(false);
  try {
    await callMany(s.client);
    const held = answeredJsonStreams(s.transport);
    assert.notEqual(held, null, "the SDK transport's internals changed shape: see src/mcp/transports/json-streams.ts");
    // initialize + tools calls, each one kept: when this fails the SDK has fixed its leak and the release can go.
    assert.ok(held! >= CALLS, `the transport held ${held} answered responses after ${CALLS + 6} calls`);
  } finally {
    await s.close();
  }
});

test("after each request the session's answered JSON responses are let go, and every call still gets its own answer", async () => {
  const s = await session(true);
  try {
    await callMany(s.client);
    assert.equal(answeredJsonStreams(s.transport), 0);
  } finally {
    await s.close();
  }
});
