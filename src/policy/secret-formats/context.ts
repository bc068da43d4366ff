/** Formats known by their context rather than a prefix: JWTs, HTTP auth headers, curl credentials, NuGet config. */
import { isPlaceholder as isPlaceholderValue } from "../secret-keys.js";
import { B, E, B64_END, SP, lineBefore, type TokenFormat } from "./format.js";

/** A base64-wrapped JWT decodes to `eyJ…` with dots. */
function decodesToJwt(value: string): boolean {
  const decoded = Buffer.from(value.slice(0, 400), "base64").toString("latin1");
  return /^eyJ[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]/.test(decoded);
}

/** A header value right after a scheme word is a credential; a bare one must look random, not like prose. */
function headerValueIsSecret(value: string, text: string, offset: number): boolean {
  if (isPlaceholderValue(value) || /^(?:bearer|basic|token|bot|digest|apikey|api-key|ssws|geniekey)$/i.test(value)) return false;
  const line = lineBefore(text, offset);
  if (/(?:^|\s)(?:Bearer|Basic|Token|Bot|Digest|ApiKey|Api-Key|SSWS|GenieKey)[^\S\r\n]{1,5}$/i.test(line)) return true;
  return /[0-9]/.test(value) && /[A-Za-z]/.test(value) && value.length >= 12;
}

export const CONTEXTUAL: readonly TokenFormat[] = [
  {
    id: "jwt",
    reason: "jwt",
    hints: ["eyj"],
    // header.payload.signature; an unsigned token (empty signature) when the payload is JSON too.
    source: String.raw`${B}eyJ[A-Za-z0-9_\-]{5,4000}\.(?:eyJ[A-Za-z0-9_\-]{5,8000}\.[A-Za-z0-9_\-]{0,4000}|[A-Za-z0-9_\-]{5,8000}\.[A-Za-z0-9_\-]{8,4000})${E}`,
  },
  {
    id: "jwt-base64",
    reason: "jwt",
    hints: ["zxlk"],
    source: String.raw`(?<![A-Za-z0-9+/])ZXlK[A-Za-z0-9+/]{40,8000}={0,2}${B64_END}`,
    accept: decodesToJwt,
  },
  {
    id: "nuget-config-password",
    reason: "secret-like-token",
    hints: ["<add"],
    source: String.raw`(<add[^\S\r\n]{1,10}key="(?:ClearText)?Password"[^\S\r\n]{1,10}value=")[^"\r\n]{8,512}(?=")`,
    ignoreCase: true,
  },
  {
    id: "authorization-header",
    reason: "http-auth-credentials",
    // `Authorization: Bearer <token>`, `"Authorization": "Basic <base64>"`, `Proxy-Authorization: <token>`.
    hints: ["authorization"],
    source: String.raw`((?<![A-Za-z0-9_\-])(?:Proxy-)?Authorization["']?${SP}[:=]${SP}["']?(?:(?:Bearer|Basic|Token|Bot|Digest|ApiKey|Api-Key|SSWS|GenieKey)[^\S\r\n]{1,5})?)[A-Za-z0-9_\-.=+/~]{8,4096}(?![A-Za-z0-9_\-.=+/~])`,
    ignoreCase: true,
    accept: (s, text, offset) => headerValueIsSecret(s, text, offset),
  },
  {
    id: "api-key-header",
    reason: "http-auth-credentials",
    // Dashed header names in requests and curl lines: `X-Api-Key: <key>`, `Private-Token: <token>`.
    hints: ["api-key", "auth-token", "access-token", "private-token", "api-token", "api-secret", "client-secret"],
    source: String.raw`((?<![A-Za-z0-9_\-])(?:X-[A-Za-z]{1,20}-|X-|[A-Za-z]{1,20}-)?(?:Api-Key|Auth-Token|Access-Token|Private-Token|Api-Token|Api-Secret|Client-Secret)${SP}:${SP})[A-Za-z0-9_\-.=+/~]{8,4096}(?![A-Za-z0-9_\-.=+/~])`,
    ignoreCase: true,
    accept: (s) => !isPlaceholderValue(s),
  },
  {
    id: "curl-user-password",
    reason: "http-auth-credentials",
    hints: ["-u", "--user"],
    source: String.raw`((?<![^\s])(?:-u|--user)(?:[^\S\r\n]{1,5}|=)["']?[^\s:"'$]{1,256}:)[^\s"'$]{3,256}`,
    accept: (_s, text, offset) => /\bcurl\b/.test(lineBefore(text, offset)),
  },
];
