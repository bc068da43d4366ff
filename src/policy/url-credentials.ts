/** Credentials in URLs: scheme://user:password@host -> scheme://user:[REDACTED]@host (a placeholder password stays). */
import { isPlaceholder } from "./secret-keys.js";
import { REDACTED, type RedactionReason } from "./redaction-reasons.js";

export const URL_CREDENTIALS = String.raw`\b([A-Za-z][A-Za-z0-9+.\-]{1,30}://[^\s:@/?#'"]{1,256}:)([^\s@/?#'"]{1,256})@`;

export function redactUrlCredentials(text: string, bump: (r: RedactionReason) => void): string {
  if (!text.includes("://")) return text;
  return text.replace(new RegExp(URL_CREDENTIALS, "g"), (match: string, prefix: string, password: string) => {
    if (password === REDACTED || isPlaceholder(password)) return match;
    bump("url-credentials");
    return `${prefix}${REDACTED}@`;
  });
}
