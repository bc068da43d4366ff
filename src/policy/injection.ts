/**
 * The instruction-like-text detector's public face; the rules live in src/policy/injection/ (one file per
 * concept: phrases per language, obfuscation normalizers, hidden HTML, exfiltration, encoded payloads, banners,
 * invisible characters).
 */
export { detectInstructionLikeText, detectorPatterns } from "./injection/detect.js";
export { INJECTION_RULE_IDS, MAX_EXCERPT_LENGTH, WorkCounter, type InjectionRuleId } from "./injection/rules.js";
