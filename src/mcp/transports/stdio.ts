import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

/**
 * Connects a server to this process's stdin and stdout (JSON-RPC only on stdout; logs go to stderr). `closed`
 * settles when the client ends the session: stdin ends or closes, or the server is closed.
 */
export async function connectStdio(server: Server): Promise<{ closed: Promise<void> }> {
  await server.connect(new StdioServerTransport());
  const closed = new Promise<void>((resolve) => {
    const done = (): void => resolve();
    process.stdin.once("end", done);
    process.stdin.once("close", done);
    server.onclose = done;
  });
  return { closed };
}
