/** Cloud providers: AWS, Google Cloud, Azure, presigned URLs and the smaller clouds. */
import { B, E, B_ALNUM, E_ALNUM, B64_END, SP, withSeparators, type TokenFormat } from "./format.js";

export const CLOUD: readonly TokenFormat[] = [
  {
    id: "aws-access-key-id",
    reason: "aws-access-key-id",
    hints: ["akia", "asia", "abia", "acca", "a3t", "agpa", "aida", "aroa", "aipa", "anpa", "anva"],
    source: `${B_ALNUM}(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}${E_ALNUM}`,
  },
  {
    id: "aws-secret-access-key",
    reason: "aws-secret-access-key",
    hints: [...withSeparators("aws", "secret"), ...withSeparators("secret", "access")],
    source: String.raw`((?:aws[_.\-]?secret[_.\-]?(?:access[_.\-]?)?key|secret[_.\-]?access[_.\-]?key)["']?${SP}(?::=|=>|:|=)${SP}["']?)[A-Za-z0-9/+]{40}${B64_END}`,
    ignoreCase: true,
  },
  {
    id: "aws-session-token",
    reason: "aws-session-token",
    hints: [...withSeparators("session", "token"), ...withSeparators("security", "token")],
    source: String.raw`((?:x-amz-)?(?:aws[_.\-]?)?(?:session|security)[_.\-]?token["']?${SP}(?::=|=>|:|=)${SP}["']?)[A-Za-z0-9/+%]{100,4000}={0,2}${B64_END}`,
    ignoreCase: true,
  },
  {
    id: "aws-sts-token-body",
    reason: "aws-session-token",
    // Session tokens are base64 of a binary blob whose first bytes name the STS service.
    hints: ["iqojb3jpz2lu", "fwogzxivyxdz", "fqogzxivyxdz"],
    source: String.raw`(?<![A-Za-z0-9+/])(?:IQoJb3JpZ2lu|FwoGZXIvYXdz|FQoGZXIvYXdz)[A-Za-z0-9+/]{60,4000}={0,2}${B64_END}`,
  },
  {
    id: "aws-bedrock-api-key",
    reason: "aws-bedrock-key",
    hints: ["absk", "bedrock-api-key-"],
    source: String.raw`${B}(?:ABSK[A-Za-z0-9+/]{100,300}|bedrock-api-key-[A-Za-z0-9+/]{40,4000})={0,2}${B64_END}`,
  },
  {
    id: "gcp-api-key",
    reason: "google-api-key",
    hints: ["aiza"],
    source: String.raw`${B}AIza[0-9A-Za-z_\-]{35}${E}`,
  },
  {
    id: "gcp-service-account-key-id",
    reason: "gcp-credential",
    hints: ["private_key_id"],
    source: String.raw`(["']?private_key_id["']?${SP}[:=]${SP}["']?)[0-9a-f]{40}(?![0-9a-f])`,
  },
  {
    id: "gcp-oauth-client-secret",
    reason: "gcp-credential",
    hints: ["gocspx-"],
    source: String.raw`${B}GOCSPX-[A-Za-z0-9_\-]{28}${E}`,
  },
  {
    id: "gcp-oauth-access-token",
    reason: "gcp-credential",
    hints: ["ya29."],
    source: String.raw`${B}ya29\.[A-Za-z0-9_\-]{30,2000}${E}`,
  },
  {
    id: "azure-storage-account-key",
    reason: "azure-storage-key",
    hints: ["accountkey", "sharedaccesskey"],
    source: String.raw`((?<![A-Za-z0-9])(?:AccountKey|SharedAccessKey)${SP}=${SP})[A-Za-z0-9+/]{20,200}={0,2}${B64_END}`,
    ignoreCase: true,
  },
  {
    id: "azure-sas-signature",
    reason: "azure-sas-token",
    hints: ["sig="],
    source: String.raw`((?<![A-Za-z0-9_\-])sig=)[A-Za-z0-9%+/]{20,300}={0,2}(?![A-Za-z0-9%+/=])`,
  },
  {
    id: "azure-ad-client-secret",
    reason: "azure-ad-client-secret",
    hints: ["q~"],
    source: String.raw`(?<![A-Za-z0-9_~.\-])[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]{31,34}(?![A-Za-z0-9_~.\-])`,
  },
  {
    id: "presigned-url-signature",
    reason: "url-signature",
    hints: ["signature="],
    source: String.raw`((?<![A-Za-z0-9_])(?:X-Amz-Signature|X-Goog-Signature|Signature)=)[A-Za-z0-9%+/_~\-]{20,2000}={0,2}(?![A-Za-z0-9%+/_~=\-])`,
  },
  {
    id: "alibaba-access-key-id",
    reason: "cloud-access-key",
    hints: ["ltai"],
    source: `${B}LTAI[A-Za-z0-9]{20}${E}`,
  },
  {
    id: "cloudflare-origin-ca-key",
    reason: "cloud-access-key",
    hints: ["v1.0-"],
    source: String.raw`${B}v1\.0-[a-f0-9]{24}-[a-f0-9]{146}${E}`,
  },
  {
    id: "digitalocean-token",
    reason: "cloud-access-key",
    hints: ["doo_v1_", "dop_v1_", "dor_v1_"],
    source: `${B}do[opr]_v1_[a-f0-9]{64}${E}`,
  },
  {
    id: "heroku-api-key",
    reason: "cloud-access-key",
    hints: ["hrku-aa"],
    source: `${B}HRKU-AA[A-Za-z0-9_\\-]{58}${E}`,
  },
  {
    id: "flyio-token",
    reason: "cloud-access-key",
    hints: ["fo1_", "fm1", "fm2_"],
    source: String.raw`${B}(?:fo1_[A-Za-z0-9_\-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,4000}={0,3})(?![A-Za-z0-9_\-+/=])`,
  },
  {
    id: "scalingo-token",
    reason: "cloud-access-key",
    hints: ["tk-us-"],
    source: `${B}tk-us-[A-Za-z0-9_\\-]{48}${E}`,
  },
  {
    id: "openshift-token",
    reason: "cloud-access-key",
    hints: ["sha256~"],
    source: `${B}sha256~[A-Za-z0-9_\\-]{43}${E}`,
  },
  {
    id: "yandex-token",
    reason: "cloud-access-key",
    hints: ["aqvn", "t1."],
    source: String.raw`${B}(?:AQVN[A-Za-z0-9_\-]{35,38}|t1\.[A-Za-z0-9_\-]{10,100}={0,2}\.[A-Za-z0-9_\-]{86}={0,2})${E}`,
  },
];
