import { spawn } from "node:child_process";
import { REPO_ROOT } from "./dist.js";

/**
 * Runs `node <args>` from the repository root, its stderr to the bench's, and parses the last line it prints as
 * JSON: how every measurement that needs a fresh process (its own RSS, its own caches) reports back.
 */
export async function runJsonChild<T>(args: string[], what: string): Promise<T> {
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk: string) => {
    stdout += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (c) => resolve(c));
  });
  if (code !== 0) throw new Error(`${what} exited with ${code}`);
  const line = stdout.trim().split("\n").at(-1);
  if (!line) throw new Error(`${what} printed no result`);
  return JSON.parse(line) as T;
}
