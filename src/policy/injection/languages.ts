/**
 * Overrides, role changes and prompt-leak requests in languages other than English. Each language lists its words
 * (verbs of ignoring or forgetting, "previous"/"above", "instructions"/"rules", possessives) and the builder below
 * turns them into bounded phrase patterns: verb first for most European languages ("Ignorez toutes les
 * instructions précédentes"), object first for languages that put the verb last (Turkish, Hindi, Persian, Japanese,
 * Korean). Words are matched with Unicode-aware edges, since `\b` only knows ASCII.
 */
import { topLevelBranches } from "./factors.js";
import { EUROPEAN } from "./languages-european.js";
import { WB, WE, near, wideRe, words, type LanguagePhrases } from "./language-table.js";
import { ASIAN_AND_OTHER } from "./languages-other.js";
import { LazyPatterns, type LanguageGate } from "./rules.js";

const alt = (xs: readonly string[]): string => `(?:${xs.join("|")})`;

function overrideSources(p: LanguagePhrases): string[] {
  if (p.verbs.length === 0 || p.prev.length === 0 || p.instr.length === 0) return [];
  const verb = alt(p.verbs);
  const prev = alt(p.prev);
  const instr = alt(p.instr);
  const sep = String.raw`[\s,:;—–-]{1,3}`;
  if (p.verbLast === true) {
    return [String.raw`${WB}(?:${prev}${WE}${near(30)}${instr}|${instr}${near(30)}${prev}${WE})${near(30)}${verb}`];
  }
  const objects = [String.raw`${prev}${WE}${sep}${words(1)}${instr}`, String.raw`${instr}${WE}${sep}${words(2)}${prev}`];
  if (p.poss !== undefined) objects.push(String.raw`${alt(p.poss)}${sep}${words(1)}${instr}`);
  return [String.raw`${WB}${verb}${WE}${sep}${words(4)}${alt(objects)}${WE}`];
}

/** Patterns over the tables' scripts, compiled one by one when first needed. */
const compile = (sources: readonly string[], flags = "i"): LazyPatterns =>
  new LazyPatterns(
    sources.map((source) => ({ source, flags })),
    (p) => wideRe(p.source, p.flags),
  );

const ALL: readonly LanguagePhrases[] = [...EUROPEAN, ...ASIAN_AND_OTHER];

/** Each group's patterns: listed when a line first passes the group's gate, each compiled when a line first holds its factors. */
export const multilingualOverride = (): LazyPatterns => compile(ALL.flatMap((p) => [...overrideSources(p), ...(p.override ?? [])]));
export const multilingualRole = (): LazyPatterns => compile(ALL.flatMap((p) => p.role ?? []));
export const multilingualPrompt = (): LazyPatterns => compile(ALL.flatMap((p) => p.prompt ?? []));

/** Send verbs and secret words across languages, for "send the tokens to https://…" in any of them. */
const SEND = [
  "envoie[rz]?", "envoyez", "transmets", "envía", "envia", "envie", "enviar", "manda", "sende", "schicke?", "übermittle",
  "invia", "stuur", "verstuur", "отправь(?:те)?", "пришли(?:те)?", "перешли(?:те)?", "надішли(?:те)?", "відправ(?:те)?",
  "wyślij(?:cie)?", "pošli(?:te)?", "trimite(?:ți)?", "gönder", "kirim(?:kan)?", "gửi", "skicka", "send",
  "أرسل", "ارسل", "שלח", "ارسال", "भेजें", "भेजो", "발송", "전송", "보내",
];
const SECRET_WORDS = [
  "tokens?", "tokeny?", "токен\\p{L}{0,3}", "ключ\\p{L}{0,3}", "парол\\p{L}{0,3}", "секрет\\p{L}{0,3}", "mots?\\s+de\\s+passe", "contraseñas?",
  "senhas?", "passw(?:or)?t\\p{L}{0,3}", "credenziali", "credenciales", "credenciais", "identifiants", "clés?", "claves?", "chaves?",
  "schlüssel", "sleutels?", "api-sleutels?", "hasła", "hasło", "hesla", "heslo", "parolele", "şifre\\p{L}{0,3}", "kata\\s+sandi",
  "mật\\s+khẩu", "lösenord", "كلمات\\s+المرور", "كلمة\\s+المرور", "סיסמאות", "סיסמה", "رمز\\p{L}{0,3}", "पासवर्ड", "टोकन",
  "비밀번호", "토큰", "密钥", "密碼", "密码", "令牌", "トークン", "パスワード", "秘密鍵", "API\\s*キー",
];
export const multilingualExfiltration = (): LazyPatterns =>
  compile([
    String.raw`${WB}${alt(SEND)}${WE}${near(80)}${alt(SECRET_WORDS)}${near(80)}https?:\/\/`,
    String.raw`${alt(SECRET_WORDS)}${near(40)}(?:发送到|發送到|送信|전송|보내)${near(10)}https?:\/\/`,
    String.raw`${alt(SECRET_WORDS)}${near(20)}(?:发送到|發送到|发到)\s{0,2}https?:\/\/`,
  ]);

/** A letter outside ASCII (not mere punctuation or emoji): the line may be in another language. */
export const NON_ASCII_LETTER = String.raw`[\u00C0-\u024F\u0370-\u1FFF\u3040-\u9FFF\uAC00-\uD7AF\uFF21-\uFF5A]`;
const gate = (asciiStems: string): LanguageGate => {
  const stems = topLevelBranches(asciiStems);
  return { pattern: new RegExp([NON_ASCII_LETTER, ...stems].join("|"), "i"), stems };
};

/**
 * Lines each group of patterns above can match: a non-ASCII letter, or one of the ASCII stems of the words the
 * patterns need (a verb of ignoring, a "from now on", a verb of showing, a verb of sending, an address).
 */
export const OTHER_LANGUAGE_GATES = {
  override: gate(String.raw`ignor|oubli|olvid|esque[cç]|vergi|vergess|vergeet|negeer|dimentic|desconsider|descart|desestim|zapom|zignor|glem|glom|abaikan|lupakan|hirau|acuh|uita|ne\s+ten|abstraction|caso\s+omiso|no\s+hagas|outre|missacht|verwirf|beachte|let\s+niet|trascur|tralasci|scordat|pomin|olej|zabud|bortse|strunta|yok\s+say|unut|jangan|bo\s+qua|phot\s+lo`),
  role: gate(String.raw`partir\s+de|ahora|agora|jetzt|sofort|nun\s+an|heute|vanaf\s+nu|d'ora|da\s+(?:ora|adesso)|desormais|dorenavant|teraz|odted|od\s+ted|de\s+acum|mulai|sekarang|tu\s+es|eres|bist\s+du|du\s+bist|je\s+bent|ora\s+sei`),
  prompt: gate(String.raw`muestra|revela|repite|imprime|dime|mostr|rivel|ripet|stampa|affiche|montre|revele|repete|donne|imprim|recopie|divulg|zeig|gib\s|nenn|wiederhol|druck|verrat|toon|herhaal|geef|print|copia|escrib|escrev|diga|repita|revele|in\s+ra|hien\s+thi`),
  exfiltration: gate(String.raw`envo|envi|manda|schick|sende|ubermittl|invia|stuur|verstuur|wyslij|posli|trimit|gonder|kirim|skicka|gui\s`),
  address: gate(String.raw`\b(?:ia|ki)\b|asistente|assistent|agente|importante|wichtig|atencion|attenzione|uwaga`),
} as const;
