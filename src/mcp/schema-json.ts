import { z } from "zod";

/** The JSON schema a client sees for a tool's input, derived from the one zod schema. */
export function toolInputJsonSchema(schema: z.ZodObject): { type: "object"; [key: string]: unknown } {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: "object" };
}
