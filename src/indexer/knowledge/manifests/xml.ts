/** XML manifests (pom.xml, *.csproj, *.slnx): validate first, so a broken file is a warning with a line. */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import type { Context } from "./common.js";
import type { ManifestFile } from "../../../core/knowledge.js";

export function parseXml(ctx: Context, file: ManifestFile, arrayTags: ReadonlySet<string>): Record<string, unknown> | null {
  const text = file.content;
  let valid: ReturnType<typeof XMLValidator.validate>;
  try {
    valid = XMLValidator.validate(text);
  } catch (e) {
    ctx.warn(file.path, null, `invalid XML: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
  if (valid !== true) {
    ctx.warn(file.path, valid.err.line ?? null, `invalid XML: ${valid.err.msg}`);
    return null;
  }
  try {
    const parser = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: true,
      processEntities: false,
      isArray: (name) => arrayTags.has(name),
    });
    const doc: unknown = parser.parse(text);
    return typeof doc === "object" && doc !== null ? (doc as Record<string, unknown>) : null;
  } catch (e) {
    ctx.warn(file.path, null, `invalid XML: ${e instanceof Error ? e.message : String(e)}`);
    return null;
  }
}

/** Text content of an element that may have attributes (then the text is under "#text"). */
export function xmlText(v: unknown): string | null {
  if (typeof v === "string") return v.trim();
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const t = (v as Record<string, unknown>)["#text"];
    if (typeof t === "string") return t.trim();
    if (typeof t === "number") return String(t);
  }
  return null;
}
