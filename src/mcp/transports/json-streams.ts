import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/**
 * The SDK's Streamable HTTP transport (v1.x up to at least 1.32) in JSON-response mode keeps one stream entry per
 * answered POST for the life of the session (typescript-sdk issue 2559): the entry holds the settled response, body
 * and all. A session making thousands of calls kept every answer it was sent; under 200 clients that was ~28 MiB of
 * answers after 30 s and most of the server's RSS growth. These functions reach into the transport's two maps,
 * found by shape; when the shape is not there (a release that renamed them) they do nothing and say so.
 */
interface StreamEntry {
  resolveJson?: unknown;
  cleanup: () => void;
}
interface Internals {
  _streamMapping: Map<string, StreamEntry>;
  _requestToStreamMapping: Map<unknown, string>;
}

function internals(transport: StreamableHTTPServerTransport): Internals | null {
  const inner = (transport as unknown as { _webStandardTransport?: Partial<Internals> })._webStandardTransport;
  if (!(inner?._streamMapping instanceof Map) || !(inner._requestToStreamMapping instanceof Map)) return null;
  return inner as Internals;
}

/** Stream entries of JSON responses no request is waiting on any more; null when the transport's shape is unknown. */
function answered(i: Internals): [string, StreamEntry][] {
  const waited = new Set(i._requestToStreamMapping.values());
  return [...i._streamMapping].filter(([id, e]) => e.resolveJson !== undefined && !waited.has(id));
}

/** How many answered JSON responses the transport still holds; null when its shape is unknown. */
export function answeredJsonStreams(transport: StreamableHTTPServerTransport): number | null {
  const i = internals(transport);
  return i ? answered(i).length : null;
}

/**
 * Lets go of every JSON response the transport has answered, through the entry's own cleanup (it only removes the
 * entry); a request still in progress keeps its entry. Returns how many went, or null when the shape is unknown.
 */
export function releaseAnsweredJsonStreams(transport: StreamableHTTPServerTransport): number | null {
  const i = internals(transport);
  if (!i) return null;
  const done = answered(i);
  for (const [, e] of done) e.cleanup();
  return done.length;
}
