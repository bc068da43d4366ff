/**
 * File classification for the indexer: file names that suggest credentials (.env, private keys, keystores, ...).
 *
 * Pure and synchronous: it runs once per file of very large repositories (80k+ files).
 */
import { baseNameOf } from "./paths.js";

/** Exact basenames (compared lowercase) that usually hold credentials. */
const SECRET_FILE_NAMES: ReadonlySet<string> = new Set([
  ".env",
  "id_rsa",
  "id_dsa",
  "id_ecdsa",
  "id_ed25519",
  ".npmrc",
  ".pypirc",
  ".netrc",
  ".htpasswd",
  "credentials.json",
  "secrets.yml",
  "secrets.yaml",
]);

/** Extensions (lowercase, with dot) of key material and credential files. */
const SECRET_FILE_EXTENSIONS: readonly string[] = [".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".tfvars"];

/** ".env.<suffix>" files that are templates, not secrets (any of these as a dot-separated part after ".env"). */
const ENV_TEMPLATE_PARTS: ReadonlySet<string> = new Set(["example", "examples", "sample", "template", "tmpl", "dist", "defaults"]);

/**
 * A stable reason id when the file NAME suggests credentials ("secret-file-name:.env", "secret-file-name:*.pem",
 * "secret-file-name:id_rsa", "secret-file-name:service-account*.json", ...), else null.
 */
export function secretFileNameReason(path: string): string | null {
  const lower = baseNameOf(path).toLowerCase();
  if (SECRET_FILE_NAMES.has(lower)) return `secret-file-name:${lower}`;
  if (lower.startsWith(".env.")) {
    const parts = lower.slice(5).split(".");
    if (parts.some((part) => ENV_TEMPLATE_PARTS.has(part))) return null;
    return "secret-file-name:.env.*";
  }
  for (const ext of SECRET_FILE_EXTENSIONS) if (lower.endsWith(ext) && lower.length > ext.length) return `secret-file-name:*${ext}`;
  if (lower.startsWith("service-account") && lower.endsWith(".json")) return "secret-file-name:service-account*.json";
  return null;
}
