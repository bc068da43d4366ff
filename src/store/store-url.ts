/**
 * Store locations as people see them: a SQLite file path, or a PostgreSQL URL that may carry a password (in its
 * userinfo or, as libpq allows, in its query string). Nothing here opens a connection, so the CLI can label and
 * redact a location without loading the PostgreSQL driver.
 */

/** Query parameters of a PostgreSQL URL that carry secrets. */
const SECRET_PARAMS = /pass|secret|token|key/i;

/** A store location names PostgreSQL when it is a postgres:// or postgresql:// URL; anything else is a SQLite file. */
export function isPostgresUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** Percent-decoding that leaves malformed text as it is. */
export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The secrets of a parsed store URL, raw and percent-decoded: what no message may repeat. */
export function urlSecrets(url: URL): string[] {
  const raw = [url.password, ...[...url.searchParams].filter(([k]) => SECRET_PARAMS.test(k)).map(([, v]) => v)];
  return [...new Set(raw.flatMap((s) => [s, safeDecode(s)]))].filter((s) => s.length > 0);
}

/** `text` with every one of `secrets` blanked out. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join("***");
  return out;
}

/** A store location safe to print: a SQLite path as it is, a PostgreSQL URL without its password and secret parameters. */
export function storeLabel(location: string): string {
  if (!isPostgresUrl(location)) return location;
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return "postgres://(unparsable URL)";
  }
  if (url.password) url.password = "";
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAMS.test(name)) url.searchParams.delete(name);
  return url.toString();
}

/** `text` with the secrets of a PostgreSQL store URL masked, wherever an error message might have copied them. */
export function withoutStoreSecret(text: string, location: string | undefined): string {
  if (!location || !isPostgresUrl(location)) return text;
  const labelled = text.split(location).join(storeLabel(location));
  try {
    return redactSecrets(labelled, urlSecrets(new URL(location)));
  } catch {
    return labelled;
  }
}
