import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { toolInputJsonSchema } from "../src/mcp/schema-json.js";
import { TOOLS } from "../src/mcp/tools/index.js";

const DIR = fileURLToPath(new URL("./tool-schemas/", import.meta.url));
const ACCEPT = "npm run schemas:update";

/** Every strict object in a JSON schema forbids unknown properties. */
function assertClosed(schema: unknown, where: string): void {
  if (schema === null || typeof schema !== "object") return;
  const s = schema as Record<string, unknown>;
  if (s.type === "object") assert.equal(s.additionalProperties, false, `${where} allows additional properties`);
  for (const [k, v] of Object.entries(s)) assertClosed(v, `${where}.${k}`);
}

describe("tool metadata and schemas", () => {
  test("every tool is read-only and closed to unknown arguments", () => {
    assert.ok(TOOLS.length >= 3);
    for (const t of TOOLS) {
      assert.equal(t.annotations.readOnlyHint, true, t.name);
      assert.equal(t.annotations.destructiveHint, false, t.name);
      assertClosed(toolInputJsonSchema(t.inputSchema), t.name);
    }
  });

  test("strings, arrays and integers are bounded", () => {
    const walk = (s: unknown, where: string): void => {
      if (s === null || typeof s !== "object") return;
      const o = s as Record<string, unknown>;
      if (o.type === "string" && o.pattern === undefined && o.enum === undefined) assert.ok(typeof o.maxLength === "number", `${where}: unbounded string`);
      if (o.type === "array") assert.ok(typeof o.maxItems === "number", `${where}: unbounded array`);
      if (o.type === "integer") assert.ok(typeof o.maximum === "number", `${where}: unbounded integer`);
      for (const [k, v] of Object.entries(o)) walk(v, `${where}.${k}`);
    };
    for (const t of TOOLS) walk(toolInputJsonSchema(t.inputSchema), t.name);
  });

  for (const t of TOOLS) {
    test(`${t.name} input schema matches its snapshot`, () => {
      const file = `${DIR}${t.name}.json`;
      const actual = `${JSON.stringify(toolInputJsonSchema(t.inputSchema), null, 2)}\n`;
      if (process.env.UPDATE_SCHEMAS === "1") {
        writeFileSync(file, actual);
        return;
      }
      assert.ok(existsSync(file), `no snapshot for ${t.name}; review and accept with: ${ACCEPT}`);
      assert.equal(actual, readFileSync(file, "utf8"), `${t.name} schema changed; review and accept with: ${ACCEPT}`);
    });
  }
});
