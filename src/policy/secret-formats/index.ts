/**
 * Token formats the redactor knows: one entry per provider format, written from the providers' documented shapes
 * (prefix, alphabet, length). The reference lists they were checked against (secretlint's recommended preset,
 * gitleaks' default rules) and which entry covers which reference rule are in `test/fixtures/secret-formats/`.
 */
import { CLOUD } from "./cloud.js";
import { CODE_HOSTING_AND_CI } from "./code-hosting.js";
import { CONTEXTUAL } from "./context.js";
import { OBSERVABILITY, PACKAGES_AND_SAAS } from "./saas.js";
import { AI_PROVIDERS, MESSAGING_AND_PAYMENTS } from "./services.js";
import type { TokenFormat } from "./format.js";

export type { TokenFormat } from "./format.js";

/** Every token format, in the order they run: specific prefixes first, the context-based ones after. */
export const TOKEN_FORMATS: readonly TokenFormat[] = [
  ...CLOUD,
  ...CODE_HOSTING_AND_CI,
  ...AI_PROVIDERS,
  ...MESSAGING_AND_PAYMENTS,
  ...PACKAGES_AND_SAAS,
  ...OBSERVABILITY,
  ...CONTEXTUAL,
];
