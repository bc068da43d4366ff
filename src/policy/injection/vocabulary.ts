/** Word lists the phrase rules share: who gets addressed, what counts as a secret, where data may be sent. */

/** The people an agent works for: concealing something from them is the tell. */
export const PEOPLE = String.raw`(?:(?:the\s+)?(?:user|human|developer|operator|reviewer|maintainer)s?|the\s+person\s+you(?:'re|\s+are)\s+(?:helping|assisting|working\s+(?:for|with)))`;
export const SECRETS = String.raw`(?:secrets?|credentials?|tokens?|api[\s_-]?keys?|passwords?|env(?:ironment)?(?:\s+(?:variables?|vars?|files?))?|\.env(?:\s+files?)?|private\s+keys?|ssh\s+keys?)`;
export const OUTSIDE = String.raw`(?:https?:\/\/|[\w.+-]{1,64}@[\w-]{1,64}\.\w|(?:an?\s+|the\s+|this\s+|my\s+|our\s+)?(?:external|remote|third[\s-]party|attacker|outside)\b|pastebin|webhook\.site|requestbin|ngrok)`;
export const SECRET_FILES = String.raw`(?:\.env\b|id_rsa|id_ed25519|\.ssh\/|\.aws\/|\.npmrc|\.netrc|\.git-credentials|credentials)`;
export const SHELLS = String.raw`(?:sudo\s+(?:-\S{1,20}\s+){0,4})?(?:(?:ba|z|k|da|fi)?sh|python3?|node|perl|ruby|php)\b`;
