/** AI providers, messaging, payments and webhooks: OpenAI, Anthropic, Stripe, Twilio, SendGrid, Slack, ... */
import { B, E, B_ALNUM, E_ALNUM, UUID, eachDigit, hasDigit, type TokenFormat } from "./format.js";

export const AI_PROVIDERS: readonly TokenFormat[] = [
  {
    id: "anthropic-key",
    reason: "anthropic-key",
    hints: ["sk-ant-"],
    source: String.raw`${B}sk-ant-[A-Za-z0-9_\-]{20,300}${E}`,
  },
  {
    id: "openai-scoped-key",
    reason: "openai-key",
    hints: ["sk-proj-", "sk-svcacct-", "sk-admin-"],
    source: String.raw`${B}sk-(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{20,300}${E}`,
  },
  {
    id: "openai-key",
    reason: "openai-key",
    hints: ["sk-"],
    source: `${B}sk-[A-Za-z0-9]{20,150}${E}`,
  },
  {
    id: "huggingface-token",
    reason: "huggingface-token",
    hints: ["hf_", "api_org_"],
    source: `${B}(?:hf_|api_org_)[A-Za-z0-9]{30,40}${E}`,
  },
  {
    id: "groq-key",
    reason: "ai-provider-key",
    hints: ["gsk_"],
    source: `${B}gsk_[A-Za-z0-9]{52}${E}`,
  },
  {
    id: "perplexity-key",
    reason: "ai-provider-key",
    hints: ["pplx-"],
    source: `${B}pplx-[A-Za-z0-9]{48}${E}`,
  },
];

export const MESSAGING_AND_PAYMENTS: readonly TokenFormat[] = [
  {
    id: "stripe-key",
    reason: "stripe-key",
    hints: ["sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_", "whsec_"],
    source: String.raw`(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,255}|whsec_[A-Za-z0-9]{20,255})(?![A-Za-z0-9_])`,
  },
  {
    id: "twilio-api-key",
    reason: "twilio-key",
    hints: ["sk"],
    source: `${B_ALNUM}SK[0-9a-fA-F]{32}${E_ALNUM}`,
    accept: (s) => hasDigit(s.slice(2)) && /[a-fA-F]/.test(s.slice(2)),
  },
  {
    id: "sendgrid-key",
    reason: "sendgrid-key",
    hints: ["sg."],
    source: String.raw`(?<![A-Za-z0-9_\-.])SG\.[A-Za-z0-9_\-]{16,128}\.[A-Za-z0-9_\-]{16,128}${E}`,
  },
  {
    id: "mailgun-key",
    reason: "mailgun-key",
    hints: ["key-"],
    source: `${B}(?:key|pubkey)-[0-9a-f]{32}${E}`,
  },
  {
    id: "sendinblue-key",
    reason: "email-provider-key",
    hints: ["xkeysib-", "xsmtpsib-"],
    source: `${B}(?:xkeysib|xsmtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}${E}`,
  },
  {
    id: "mailchimp-key",
    reason: "email-provider-key",
    hints: eachDigit((d) => `-us${d}`),
    source: `${B}[0-9a-f]{32}-us[0-9]{1,2}${E}`,
  },
  {
    id: "slack-token",
    reason: "slack-token",
    hints: ["xox", "xapp-"],
    source: String.raw`${B}(?:(?:xoxe\.)?xox[a-z]-[A-Za-z0-9\-]{10,250}|xapp-[0-9]-[A-Za-z0-9\-]{9,250})`,
    accept: (s) => hasDigit(s),
  },
  {
    id: "slack-webhook",
    reason: "slack-webhook",
    hints: ["hooks.slack.com"],
    source: String.raw`((?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/)[A-Za-z0-9_/+\-]{8,300}`,
  },
  {
    id: "teams-webhook",
    reason: "webhook-url",
    hints: ["webhook.office.com"],
    source: String.raw`(https://[A-Za-z0-9\-]{1,63}\.webhook\.office\.com/webhookb2/)[A-Za-z0-9@/\-]{40,400}`,
  },
  {
    id: "discord-webhook",
    reason: "webhook-url",
    hints: ["/api/webhooks/"],
    source: String.raw`(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/)[0-9]{5,30}/[A-Za-z0-9_\-]{40,100}`,
  },
  {
    id: "telegram-bot-token",
    reason: "messaging-token",
    hints: [":a"],
    source: String.raw`${B_ALNUM}[0-9]{5,16}:A[A-Za-z0-9_\-]{34}${E}`,
  },
  {
    id: "square-token",
    reason: "payment-token",
    hints: ["eaaa", "sq0atp-", "sq0csp-"],
    source: String.raw`${B}(?:EAAA|sq0atp-|sq0csp-)[A-Za-z0-9_\-]{22,60}${E}`,
  },
  {
    id: "shippo-token",
    reason: "payment-token",
    hints: ["shippo_"],
    source: `${B}shippo_(?:live|test)_[a-fA-F0-9]{40}${E}`,
  },
  {
    id: "flutterwave-key",
    reason: "payment-token",
    hints: ["flwseck_test-", "flwpubk_test-"],
    source: `${B}FLW(?:SECK|PUBK)_TEST-[A-Za-z0-9]{12,32}(?:-X)?${E}`,
    ignoreCase: true,
  },
  {
    id: "duffel-token",
    reason: "payment-token",
    hints: ["duffel_"],
    source: String.raw`${B}duffel_(?:test|live)_[A-Za-z0-9_\-=]{43}(?![A-Za-z0-9_\-=])`,
  },
  {
    id: "easypost-token",
    reason: "payment-token",
    hints: ["ezak", "eztk"],
    source: `${B}EZ[AT]K[A-Za-z0-9]{54}${E}`,
  },
  {
    id: "plaid-access-token",
    reason: "payment-token",
    hints: ["access-sandbox-", "access-development-", "access-production-"],
    source: `${B}access-(?:sandbox|development|production)-${UUID}${E}`,
  },
  {
    id: "facebook-token",
    reason: "social-token",
    hints: ["eaam", "eaac", "%7c", ...eachDigit((d) => `${d}|`)],
    source: String.raw`${B}(?:EAA[MC][A-Za-z0-9]{100,2000}|[0-9]{15,16}(?:\||%7[Cc])[0-9A-Za-z_\-]{27,40})${E}`,
  },
];
