import { spawn, type ChildProcess } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Envelope } from "../../src/service/envelope.js";
import { CLI, PROJECT_ROOT } from "./cli.js";

/** A real SDK client over Streamable HTTP with a bearer token. */
export async function connect(url: string, token: string): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  const client = new Client({ name: "http-test", version: "0.0.0" });
  await client.connect(transport);
  return { client, transport };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<Envelope> {
  return (await client.callTool({ name, arguments: { verbosity: "full", ...args } })).structuredContent as unknown as Envelope;
}


/** Starts the built CLI's HTTP server and resolves with the URL from its `listening` log line. */
export function serveCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ proc: ChildProcess; url: string; stderr: () => string }> {
  const proc = spawn(process.execPath, [CLI, "serve", "--http", "--port", "0", "--quiet", "--tools", "all", ...args], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  let url: string | null = null;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${stderr}`)), 60_000);
    proc.once("exit", (code) => {
      clearTimeout(timer);
      if (url === null) reject(new Error(`serve exited with ${code}: ${stderr}`));
    });
    proc.stderr!.on("data", (d: Buffer) => {
      stderr += d.toString();
      if (url !== null) return;
      const complete = stderr.slice(0, stderr.lastIndexOf("\n") + 1);
      for (const line of complete.split("\n").filter((l) => l.startsWith("{"))) {
        const rec = JSON.parse(line) as { message: string; url?: string };
        if (rec.message !== "listening" || !rec.url) continue;
        url = rec.url;
        clearTimeout(timer);
        resolve({ proc, url, stderr: () => stderr });
        return;
      }
    });
  });
}

export function stop(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((resolve) => {
    proc.once("exit", (code) => resolve(code));
    proc.kill("SIGTERM");
  });
}

