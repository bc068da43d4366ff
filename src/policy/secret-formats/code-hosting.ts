/** Code hosting, CI/CD, infrastructure and secrets managers: GitHub, GitLab, Atlassian, CircleCI, Vault, ... */
import { B, E, hasDigit, mixedCaseWithDigit, type TokenFormat } from "./format.js";

export const CODE_HOSTING_AND_CI: readonly TokenFormat[] = [
  {
    id: "github-classic-token",
    reason: "github-token",
    hints: ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
    source: String.raw`(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])`,
  },
  {
    id: "github-fine-grained-pat",
    reason: "github-token",
    hints: ["github_pat_"],
    source: String.raw`(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{22,255}(?![A-Za-z0-9_])`,
  },
  {
    id: "github-app-installation-token",
    reason: "github-token",
    hints: ["ghs_"],
    source: String.raw`(?<![A-Za-z0-9_])ghs_[0-9]{1,20}_[A-Za-z0-9_\-]{1,1000}\.[A-Za-z0-9_\-]{1,4000}\.[A-Za-z0-9_\-]{1,1000}${E}`,
  },
  {
    id: "github-oauth-url-user",
    reason: "github-token",
    // `https://<token>:x-oauth-basic@github.com/...`: the token is the URL's user, not its password.
    hints: ["x-oauth-basic@"],
    source: String.raw`(https?://)[^\s:@/"'\x60]{8,256}(?=:x-oauth-basic@)`,
  },
  {
    id: "gitlab-token",
    reason: "gitlab-token",
    hints: ["glpat-", "gldt-", "glrt-", "glcbt-", "glffct-", "glft-", "glimt-", "glagent-", "gloas-", "glptt-", "glsoat-"],
    source: String.raw`${B}gl(?:pat|dt|rt|cbt|ffct|ft|imt|agent|oas|ptt|soat)-[A-Za-z0-9_\-]{20,300}(?:\.[0-9a-z]{9})?${E}`,
  },
  {
    id: "gitlab-runner-registration-token",
    reason: "gitlab-token",
    hints: ["gr1348941"],
    source: String.raw`${B}GR1348941[A-Za-z0-9_\-]{20,64}${E}`,
  },
  {
    id: "gitlab-session-cookie",
    reason: "gitlab-token",
    hints: ["_gitlab_session="],
    source: String.raw`(_gitlab_session=)[0-9a-f]{32}(?![0-9a-f])`,
  },
  {
    id: "bitbucket-app-password",
    reason: "bitbucket-token",
    hints: ["atbb"],
    source: String.raw`${B}ATBB[A-Za-z0-9_\-=]{24,100}(?![A-Za-z0-9_\-=])`,
  },
  {
    id: "atlassian-api-token",
    reason: "atlassian-token",
    hints: ["atatt3", "atctt3", "atstt3"],
    source: String.raw`${B}AT[ACS]TT3[A-Za-z0-9_\-=]{60,300}(?![A-Za-z0-9_\-=])`,
  },
  {
    id: "circleci-token",
    reason: "circleci-token",
    hints: ["ccipat_", "cciprj_"],
    source: String.raw`${B}CCIP(?:AT|RJ)_[A-Za-z0-9]{10,40}_[0-9a-f]{40}${E}`,
  },
  {
    id: "sonarqube-token",
    reason: "devops-token",
    hints: ["squ_", "sqp_", "sqa_"],
    source: `${B}sq[upa]_[0-9a-f]{40}${E}`,
  },
  {
    id: "doppler-token",
    reason: "secrets-manager-token",
    hints: ["dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit."],
    source: String.raw`${B}dp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}${E}`,
  },
  {
    id: "terraform-cloud-token",
    reason: "devops-token",
    hints: ["atlasv1"],
    source: String.raw`${B}[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_\-=]{60,70}(?![A-Za-z0-9_\-=])`,
  },
  {
    id: "vault-token",
    reason: "secrets-manager-token",
    hints: ["hvs.", "hvb.", "hvr."],
    source: String.raw`${B}(?:hvs\.[A-Za-z0-9_\-]{90,120}|hvb\.[A-Za-z0-9_\-]{138,300}|hvr\.[A-Za-z0-9_\-]{90,120})${E}`,
  },
  {
    id: "vault-legacy-token",
    reason: "secrets-manager-token",
    hints: ["s."],
    source: String.raw`(?<![A-Za-z0-9_.\-])s\.[A-Za-z0-9]{24}${E}`,
    accept: (s) => mixedCaseWithDigit(s.slice(2)),
  },
  {
    id: "pulumi-token",
    reason: "devops-token",
    hints: ["pul-"],
    source: `${B}pul-[a-f0-9]{40}${E}`,
  },
  {
    id: "octopus-deploy-key",
    reason: "devops-token",
    hints: ["api-"],
    source: `${B}API-[A-Z0-9]{26}${E}`,
    accept: (s) => hasDigit(s),
  },
  {
    id: "prefect-token",
    reason: "devops-token",
    hints: ["pnu_"],
    source: `${B}pnu_[A-Za-z0-9]{36}${E}`,
  },
  {
    id: "infracost-token",
    reason: "devops-token",
    hints: ["ico-"],
    source: `${B}ico-[A-Za-z0-9]{32}${E}`,
  },
  {
    id: "harness-token",
    reason: "devops-token",
    hints: ["pat.", "sat."],
    source: String.raw`${B}(?:pat|sat)\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}${E}`,
  },
  {
    id: "databricks-token",
    reason: "devops-token",
    hints: ["dapi"],
    source: `${B}dapi[a-f0-9]{32}(?:-[0-9])?${E}`,
  },
  {
    id: "vercel-token",
    reason: "devops-token",
    hints: ["vcp_", "vci_", "vca_", "vcr_", "vck_"],
    source: `${B}vc[pikar]_[A-Za-z0-9]{20,60}${E}`,
  },
  {
    id: "authress-access-key",
    reason: "devops-token",
    hints: ["sc_", "ext_", "scauth_", "authress_"],
    source: String.raw`${B}(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_\-][A-Za-z0-9\-]{10,32}\.[A-Za-z0-9+/_=\-]{30,120}(?![A-Za-z0-9+/_=\-])`,
  },
  {
    id: "defined-networking-token",
    reason: "devops-token",
    hints: ["dnkey-"],
    source: String.raw`${B}dnkey-[A-Za-z0-9=_\-]{26}-[A-Za-z0-9=_\-]{52}(?![A-Za-z0-9=_\-])`,
  },
  {
    id: "age-secret-key",
    reason: "private-key",
    hints: ["age-secret-key-1"],
    source: `${B}AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}${E}`,
  },
  {
    id: "onepassword-token",
    reason: "secrets-manager-token",
    hints: ["ops_ey", "a3-"],
    source: String.raw`${B}(?:ops_eyJ[A-Za-z0-9+/]{100,4000}={0,3}|A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5})(?![A-Za-z0-9_\-+/=])`,
  },
];
