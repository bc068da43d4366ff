/** How much of a task is shown: every part of it is bounded. */

export const MAX_TITLE_CHARS = 300;
export const MAX_OBJECTIVE_CHARS = 1000;
export const MAX_ITEM_CHARS = 500;
export const MAX_COMMENT_CHARS = 4000;
export const MAX_CRITERIA = 50;
export const MAX_NON_GOALS = 50;
export const MAX_USER_INSTRUCTIONS = 30;
export const MAX_LINKS = 100;
export const MAX_SUSPICIOUS = 100;
export const MAX_LABELS = 30;
export const MAX_LABEL_CHARS = 100;
export const MAX_URL_CHARS = 1000;
export const MAX_AUTHOR_CHARS = 100;
export const MAX_OUTLINE = 50;
/** Linked repository paths looked up in the store (each costs a query or two). */
export const MAX_PATH_LOOKUPS = 50;
