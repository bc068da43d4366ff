import { MAX_SPAN, re, type LineRule } from "./rules.js";
import { SHELLS } from "./vocabulary.js";

/**
 * English phrase rules about what an agent is asked to do to the repository: game the verifier, weaken security
 * controls, push around review, run remote code. Negatable ("Never force-push to main" is advice); security
 * settings are also hedgeable ("for local testing only" is documentation).
 */
export const ENGLISH_ACTION_RULES: readonly LineRule[] = [
  {
    ruleId: "verifier-gaming",
    negatable: true,
    patterns: [
      re(String.raw`\b(?:delete|remove|skip|disable|comment\s+out|xfail|ignore)\s+(?:all\s+)?(?:of\s+)?(?:the\s+|any\s+)?(?:failing|broken|failed)\s+(?:unit\s+|integration\s+|e2e\s+)?tests?\b`),
      re(String.raw`\b(?:delete|remove|disable)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?tests\b(?![\/\w-]|\.\w|\s+(?:directory|dir|folder|files?|data|fixtures?|cache|outputs?|results?|reports?|artifacts?|containers?|databases?|db)\b)`),
      re(String.raw`\b(?:modify|change|edit|rewrite|update|weaken|loosen)\s+(?:the\s+)?(?:tests?|assertions?|expected\s+(?:values?|outputs?|results?))\s+(?:so\s+(?:that\s+)?(?:they|it|the\s+build|ci)\s+pass(?:es)?|to\s+(?:make\s+(?:them|it)\s+)?pass)\b`),
      re(String.raw`\b(?:make|get)\s+(?:the\s+)?(?:tests?|ci|build|checks?)\s+(?:to\s+)?pass\s+(?:by\s+any\s+means|no\s+matter\s+what|at\s+all\s+costs)`),
      re(String.raw`\b(?:grader|autograder|evaluator|verifier|scoring\s+script|judge)\s+only\s+(?:checks?|looks\s+at|verifies|tests)\b`),
      re(String.raw`\b(?:add|insert|put|prepend)\s+[^\n]{0,40}?(?:pytest\.skip|unittest\.skip|\.skip\(|@skip|@Ignore|@Disabled|t\.Skip|\bxit\b|\bxdescribe\b)[^\n]{0,60}?\b(?:every|all|each)\s+(?:of\s+the\s+)?tests?\b`),
      re(String.raw`\b(?:turn|switch)\s+off\s+(?:all\s+)?(?:the\s+)?(?:unit\s+|integration\s+|e2e\s+|security\s+)?tests?\b(?![\/\w-]|\.\w|\s+(?:directory|dir|folder|files?|data)\b)`),
      re(String.raw`\bmark\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:failing|broken|failed)\s+(?:[\w-]+\s+)?tests?\s+as\s+(?:skipped|passing|passed|xfail|expected)\b`),
    ],
  },
  {
    ruleId: "weaken-security",
    negatable: true,
    hedgeable: true,
    describable: true,
    patterns: [
      re(String.raw`\b(?:disable|turn\s+off|switch\s+off|remove|skip|bypass|circumvent|comment\s+out|drop|rip\s+out|deactivate|get\s+rid\s+of|strip\s+out|neuter)\s+(?:(?:the|all|any|every|of|our|your|this|these|its)\s+){0,3}(?:[\w-]+\s+){0,2}?(?:(?:TLS|SSL|HTTPS|certificate|cert|hostname|host[\s-]key)\s+(?:verification|validation|checks?|checking|pinning)|(?:GPG\s+|PGP\s+|code[\s-])?signature\s+(?:verification|validation|checks?|checking)|(?:code[\s-])?signing|checksum\s+(?:verification|validation|checks?)|(?:integrity|hash)\s+(?:verification|checks?)|(?:auth|authentication|authorization|permission|access)\s+(?:checks?|middleware|guards?)|CSRF(?:\s+(?:protection|checks?|middleware|tokens?))?|(?:two-factor|2FA|MFA|multi-factor)(?:\s+(?:enforcement|requirement|authentication))?|(?:secret|credential)\s+scann(?:er|ing)|(?:SAST|DAST|security|CodeQL|dependency|vulnerability)\s+(?:scans?|scanning|scanner|jobs?|checks?|audits?|steps?)|firewall|rate\s+limit(?:ing|s|er)?|input\s+validation|content\s+security\s+policy|secure\s+boot|SELinux|AppArmor)\b`),
      // A setting that turns verification off, applied by an imperative with a wide scope ("in every workflow",
      // "globally", "and commit it"): "you can pass verify=False for local testing" is documentation (hedge).
      re(String.raw`\b(?:set|use|add|pass|export|put|configure|apply|append|run|always)\b[^\n]{0,60}?(?:verify\s*=\s*False|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0|rejectUnauthorized\s*:\s*false|InsecureSkipVerify\s*:\s*true|strict-ssl\s*=?\s*false|(?:http\.)?sslVerify\s+false|GIT_SSL_NO_VERIFY|CURLOPT_SSL_VERIFY(?:PEER|HOST)\s*=?\s*(?:0|false)|--no-verify-signatures?|--skip-signature-check|--insecure\b|\bcurl\s+(?:-[\w-]{1,20}\s+){0,4}-k\b|--no-check-certificate|(?:ssl_verify|verify_ssl)\s*=\s*false|check_hostname\s*=\s*False|PYTHONHTTPSVERIFY\s*=\s*0)[^\n]{0,80}?(?:\b(?:every|all|everywhere|globally|production|prod)\b|--global\b|\bcommit\b)`),
      re(String.raw`\b(?:always|globally)\s+(?:pass|use|add|set)\s+[^\n]{0,20}?(?:verify\s*=\s*False|NODE_TLS_REJECT_UNAUTHORIZED\s*=\s*["']?0|rejectUnauthorized\s*:\s*false|InsecureSkipVerify\s*:\s*true|strict-ssl\s*=?\s*false|(?:http\.)?sslVerify\s+false|GIT_SSL_NO_VERIFY|CURLOPT_SSL_VERIFY(?:PEER|HOST)\s*=?\s*(?:0|false)|--no-verify-signatures?|--skip-signature-check|--insecure\b|\bcurl\s+(?:-[\w-]{1,20}\s+){0,4}-k\b|--no-check-certificate|(?:ssl_verify|verify_ssl)\s*=\s*false|check_hostname\s*=\s*False|PYTHONHTTPSVERIFY\s*=\s*0)`),
    ],
  },
  {
    ruleId: "unsafe-git",
    negatable: true,
    patterns: [
      re(String.raw`\b(?:push|commit|merge)(?:ed|ing|s)?\s+(?:\S+\s+){0,3}?(?:directly|straight)\s+(?:to|into|on(?:to)?)\s+(?:the\s+)?(?:origin\/?\s*)?(?:main|master)\b`),
      // "Push to main only after review" is process advice; "then push to main" is a directive.
      re(String.raw`(?<!\b(?:on|every|each|a|any|after|before|the|upon|for|of|no|you|we|they|i)\s+)\bpush\s+(?:(?:your|the|all|these|those|my)\s+)?(?:(?:changes?|commits?|code|it|them|this)\s+)?(?:to|into)\s+(?:origin\s+)?(?:main|master)\b(?!\s+(?:only\s+)?(?:after|once|when|if|upon)\b)`),
      re(String.raw`\bforce[\s-]?push(?:ed|es|ing)?\b`),
      // "`git push --force` rewrites the remote branch" describes the command; it does not ask anyone to run it.
      re(String.raw`\bgit\s+push\b[^\n]{0,${MAX_SPAN}}?\s(?:--force(?:-with-lease)?|-f)(?![\w-])(?!\x60?\s+(?:is|are|was|will|would|can|could|may|might|should|rewrites|overwrites|replaces|discards|destroys|deletes|refuses)\b)`),
      re(String.raw`\bgit\s+push\s+\S+\s+\+\S`),
      re(String.raw`\b(?:bypass|circumvent|disable|skip)\s+(?:the\s+)?(?:branch\s+protections?|code\s+reviews?|required\s+reviews?)\b`),
    ],
  },
  {
    ruleId: "remote-execution",
    negatable: true,
    patterns: [
      re(String.raw`\b(?:curl|wget)\b[^\n|]{0,${MAX_SPAN}}\|\s*${SHELLS}`),
      re(String.raw`\b(?:bash|sh|zsh)\s+(?:-c\s+)?["']?\s*(?:<\(|\$\()\s*(?:curl|wget)\b`),
      re(String.raw`\beval\s+["']?\$\(\s*(?:curl|wget)\b`),
      re(String.raw`\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b[^\n|]{0,${MAX_SPAN}}\|\s*(?:iex|invoke-expression)\b`),
      re(String.raw`\b(?:iex|invoke-expression)\b[^\n]{0,40}?(?:\b(?:iwr|irm|invoke-webrequest|invoke-restmethod)\b|downloadstring)`),
      re(String.raw`\bbase64\s+(?:-d|--decode|-D)\b[^\n|]{0,40}\|\s*${SHELLS}`),
    ],
  },
];
