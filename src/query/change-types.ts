/** The kinds of change get_change_impact_context and `repoctx impact` take; apart so the CLI reads them without the query. */
export const CHANGE_TYPES = ["api_migration", "bug_fix", "feature", "refactor", "dependency_upgrade", "config_change", "test_change", "docs"] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
