import assert from "node:assert/strict";
import { describe, it } from "node:test";

import * as linguist from "linguist-languages";
import type { Language } from "linguist-languages";

import { isBinaryContent, isBinaryPath } from "../src/indexer/classify/binary.js";
import { MINIFIED_AVG_LINE_LENGTH, detectGenerated } from "../src/indexer/classify/generated.js";
import {
  EXTENSION_OVERRIDES,
  createLanguageDetector,
  detectLanguage,
  languageIdFromLinguistName,
  shebangInterpreter,
} from "../src/indexer/classify/language.js";
import { secretFileNameReason } from "../src/indexer/classify/secret-names.js";
import { SCAN_ERROR_RULE_ID, createSecretScanner } from "../src/indexer/secrets.js";
import { holdsCredential } from "../src/policy/secret-scan.js";
import { COVERAGE } from "./fixtures/secret-formats/inputs.js";

// ---------------------------------------------------------------------------------------------------------
// Languages
// ---------------------------------------------------------------------------------------------------------

describe("detectLanguage", () => {
  const cases: readonly [path: string, firstLine: string | undefined, expected: string | null][] = [
    ["src/main/java/com/acme/App.java", undefined, "java"],
    ["src/index.ts", undefined, "typescript"],
    ["types/global.d.ts", undefined, "typescript"],
    ["web/App.tsx", undefined, "tsx"],
    ["web/app.js", undefined, "javascript"],
    ["web/app.mjs", undefined, "javascript"],
    ["web/app.cjs", undefined, "javascript"],
    ["tool/run.py", undefined, "python"],
    ["cmd/server/main.go", undefined, "go"],
    ["src/lib.rs", undefined, "rust"],
    ["include/list.h", undefined, "c"],
    ["src/list.c", undefined, "c"],
    ["src/list.cc", undefined, "cpp"],
    ["src/list.hpp", undefined, "cpp"],
    ["src/Program.cs", undefined, "csharp"],
    ["app/src/Main.kt", undefined, "kotlin"],
    ["lib/widget.rb", undefined, "ruby"],
    ["public/index.php", undefined, "php"],
    ["src/Main.scala", undefined, "scala"],
    ["Sources/App.swift", undefined, "swift"],
    ["docs/README.md", undefined, "markdown"],
    [".github/workflows/ci.yml", undefined, "yaml"],
    ["deploy/values.yaml", undefined, "yaml"],
    ["package.json", undefined, "json"],
    ["Lib.fs", undefined, "fsharp"],
    ["View.mm", undefined, "objective-cpp"],
    ["Classes/View.m", undefined, "objective-c"],
    ["script/deploy.pl", undefined, "perl"],
    ["rtl/alu.v", undefined, "verilog"],
    ["db/schema.sql", undefined, "sql"],
    ["analysis.R", undefined, "r"],
    ["notes.txt", undefined, "text"],
    ["src/main/resources/app.properties", undefined, "java-properties"],
    ["scripts/build.sh", undefined, "shell"],
    ["contracts/Token.sol", undefined, "solidity"],
    ["config/version.h.in", undefined, "c"], // multi-part Linguist extension
    // shebangs for extensionless scripts
    ["bin/tool", "#!/usr/bin/env python3", "python"],
    ["bin/tool", "#!/usr/bin/python3.11 -u", "python"],
    ["bin/setup", "#!/bin/bash", "shell"],
    ["bin/setup", "#!/usr/bin/env -S node --no-warnings", "javascript"],
    ["bin/setup", "#!/usr/bin/env ruby", "ruby"],
    ["bin/setup", "no shebang here", null],
    // a shebang picks among the candidates of an ambiguous extension
    ["cgi-bin/form.cgi", "#!/usr/bin/perl -w", "perl"],
    // an unambiguous extension wins over the shebang
    ["scripts/cli.ts", "#!/usr/bin/env node", "typescript"],
    // Linguist filenames
    ["Makefile", undefined, "makefile"],
    ["src/GNUmakefile", undefined, "makefile"],
    ["Dockerfile", undefined, "dockerfile"],
    ["docker/Dockerfile.prod", undefined, "dockerfile"],
    ["CMakeLists.txt", undefined, "cmake"],
    ["Gemfile", undefined, "ruby"],
    ["Rakefile", undefined, "ruby"],
    [".gitignore", undefined, "ignore-list"],
    ["drivers/net/Kconfig", undefined, "kconfig"],
    ["go.mod", undefined, "go-module"],
    // Windows separators are tolerated
    ["src\\win\\Main.java", undefined, "java"],
    // unknown
    ["data/blob.unknownext", undefined, null],
    ["LICENSE-THIRD-PARTY-NOTES", undefined, null],
    ["proto/legacy.mod", undefined, null], // deliberately unknown (see EXTENSION_OVERRIDES)
    ["", undefined, null],
  ];
  for (const [path, firstLine, expected] of cases) {
    it(`${JSON.stringify(path)}${firstLine ? ` + ${JSON.stringify(firstLine)}` : ""} -> ${String(expected)}`, () => {
      assert.equal(detectLanguage(path, firstLine), expected);
    });
  }

  it("maps Linguist names to ids", () => {
    assert.equal(languageIdFromLinguistName("C++"), "cpp");
    assert.equal(languageIdFromLinguistName("C#"), "csharp");
    assert.equal(languageIdFromLinguistName("F#"), "fsharp");
    assert.equal(languageIdFromLinguistName("Objective-C"), "objective-c");
    assert.equal(languageIdFromLinguistName("Objective-C++"), "objective-cpp");
    assert.equal(languageIdFromLinguistName("Shell"), "shell");
    assert.equal(languageIdFromLinguistName("Java Properties"), "java-properties");
    assert.equal(languageIdFromLinguistName("TSX"), "tsx");
  });

  it("every override names a language that exists in Linguist (or is deliberately null)", () => {
    const known = new Set((Object.values(linguist) as readonly Language[]).map((l) => languageIdFromLinguistName(l.name)));
    for (const [ext, id] of Object.entries(EXTENSION_OVERRIDES)) {
      assert.ok(ext.startsWith(".") && ext === ext.toLowerCase(), `override key ${ext}`);
      if (id !== null) assert.ok(known.has(id), `override ${ext} -> ${id} is not a Linguist language id`);
    }
  });

  it("parses shebangs", () => {
    assert.equal(shebangInterpreter("#!/usr/bin/env python3"), "python3");
    assert.equal(shebangInterpreter("#! /bin/sh -e"), "sh");
    assert.equal(shebangInterpreter("#!/usr/bin/env FOO=1 -S deno run"), "deno");
    assert.equal(shebangInterpreter("# not a shebang"), null);
    assert.equal(shebangInterpreter(undefined), null);
  });

  it("separate detectors give the same answers", () => {
    const d = createLanguageDetector();
    for (const p of ["a.ts", "b.h", "Makefile", "c.unknownext"]) assert.equal(d.detectLanguage(p), detectLanguage(p));
  });
});

// ---------------------------------------------------------------------------------------------------------
// Binary
// ---------------------------------------------------------------------------------------------------------

describe("binary detection", () => {
  const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
  const text = (s: string): Uint8Array => new TextEncoder().encode(s);

  it("NUL byte in the first 8000 bytes is binary", () => {
    assert.equal(isBinaryContent(bytes(0x61, 0x62, 0x00, 0x63)), true);
    const late = new Uint8Array(9000).fill(0x61);
    late[8500] = 0;
    assert.equal(isBinaryContent(late), false, "a NUL after the sniff window is not looked at");
    late[7999] = 0;
    assert.equal(isBinaryContent(late), true);
  });

  it("known signatures are binary even without NUL", () => {
    assert.equal(isBinaryContent(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x41)), true, "PNG");
    assert.equal(isBinaryContent(bytes(0xff, 0xd8, 0xff, 0xe0, 0x41)), true, "JPEG");
    assert.equal(isBinaryContent(text("GIF89a....")), true, "GIF");
    assert.equal(isBinaryContent(text("%PDF-1.7\n")), true, "PDF");
    assert.equal(isBinaryContent(bytes(0x50, 0x4b, 0x03, 0x04, 0x14)), true, "ZIP");
    assert.equal(isBinaryContent(bytes(0x1f, 0x8b, 0x08)), true, "gzip");
    assert.equal(isBinaryContent(bytes(0x7f, 0x45, 0x4c, 0x46, 0x02)), true, "ELF");
    assert.equal(isBinaryContent(bytes(0xca, 0xfe, 0xba, 0xbe, 0x41)), true, "class");
  });

  it("text is not binary", () => {
    assert.equal(isBinaryContent(text("export const x = 1;\n")), false);
    assert.equal(isBinaryContent(text("héllo wörld — ünïcode ✓\n")), false);
    assert.equal(isBinaryContent(text("PK is a primary key\n")), false);
    assert.equal(isBinaryContent(new Uint8Array(0)), false);
  });

  it("binary extensions", () => {
    for (const p of ["logo.png", "a/b/photo.JPG", "x.gif", "favicon.ico", "doc.pdf", "a.zip", "a.tar.gz", "lib.jar", "A.class", "libx.so", "x.dll", "x.exe", "m.wasm", "f.woff", "f.woff2", "f.ttf", "v.mp4", ".DS_Store"]) {
      assert.equal(isBinaryPath(p), true, p);
    }
    for (const p of ["a.ts", "model.obj", "Makefile", "README", "png", ".png-notes.md", "a.svg"]) assert.equal(isBinaryPath(p), false, p);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Generated / vendored
// ---------------------------------------------------------------------------------------------------------

describe("detectGenerated", () => {
  const NORMAL_TS = [
    "// Generates unique ids for new records; the caller decides when to generate them.",
    "import { randomUUID } from 'node:crypto';",
    "/** The id is auto-generated by the database when omitted. */",
    "export function generateId(): string {",
    "  const generated = randomUUID(); // do not edit the prefix below without a migration",
    "  return `id_${generated}`;",
    "}",
    "",
  ].join("\n");

  const positives: readonly [name: string, path: string, content: string | null, reason: string, vendored: boolean][] = [
    ["@generated", "src/schema.ts", "/**\n * @generated SignedSource<<abc>>\n */\nexport {};\n", "marker:@generated", false],
    ["Go header", "api/zz.go", "// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage api\n", "marker:code-generated", false],
    ["Go header in a block comment", "api/zz2.go", "/*\nCode generated by mockgen. DO NOT EDIT.\n*/\npackage api\n", "marker:code-generated", false],
    ["generated markdown's HTML comment", "docs/cli.md", "<!-- Code generated by docgen. DO NOT EDIT. -->\n# cli\n", "marker:code-generated", false],
    ["DO NOT EDIT", "src/version.ts", "// THIS FILE IS WRITTEN BY scripts/version.mjs - DO NOT EDIT\nexport const v = 1;\n", "marker:do-not-edit", false],
    ["do not edit this file", "conf/app.ini", "; Please do not edit this file: it is rewritten on deploy\nx=1\n", "marker:do-not-edit", false],
    ["auto-generated comment", "src/api.ts", "// Auto-generated by openapi-generator\nexport {};\n", "marker:auto-generated", false],
    ["autogenerated hash comment", "requirements.txt", "#\n# This file is autogenerated by pip-compile with Python 3.12\n#\nidna==3.7\n", "marker:auto-generated", false],
    ["automatically generated", "docs/api.md", "<!-- This file was automatically generated. -->\n# API\n", "marker:auto-generated", false],
    ["Generated by", "gen/parser.py", '"""Generated by ANTLR 4.13"""\nclass P: pass\n', "marker:auto-generated", false],
    [".NET <auto-generated>", "Props/Resources.cs", "//------\n// <auto-generated>\n//     This code was generated by a tool.\n// </auto-generated>\n", "marker:auto-generated", false],
    ["minified by name", "public/jquery.min.js", "var a=1;\n", "minified", false],
    ["minified css by name", "public/site.min.css", "a{b:c}\n", "minified", false],
    ["minified by content", "public/bundle.js", `${"var a=1;".repeat(200)}\n${"f(a);".repeat(200)}\n`, "minified", false],
    ["source map", "public/bundle.js.map", '{"version":3}', "source-map", false],
    ["package-lock.json", "package-lock.json", null, "lock-file", false],
    ["yarn.lock", "web/yarn.lock", null, "lock-file", false],
    ["pnpm-lock.yaml", "pnpm-lock.yaml", null, "lock-file", false],
    ["Cargo.lock", "Cargo.lock", null, "lock-file", false],
    ["go.sum", "go.sum", null, "lock-file", false],
    ["poetry.lock", "poetry.lock", null, "lock-file", false],
    ["uv.lock", "uv.lock", null, "lock-file", false],
    ["bun.lockb", "bun.lockb", null, "lock-file", false],
    ["gradle.lockfile", "app/gradle.lockfile", null, "lock-file", false],
    ["*.pb.go", "api/v1/user.pb.go", "package v1\n", "protobuf", false],
    ["*_grpc.pb.go", "api/v1/user_grpc.pb.go", "package v1\n", "protobuf", false],
    ["*_pb2.py", "proto/user_pb2.py", "x = 1\n", "protobuf", false],
    ["*.pb.h", "proto/user.pb.h", "#pragma once\n", "protobuf", false],
    ["*.pb.cc", "proto/user.pb.cc", "int x;\n", "protobuf", false],
    ["designer", "WinApp/Form1.Designer.cs", "partial class Form1 {}\n", "generated-name", false],
    ["k8s zz_generated", "pkg/apis/v1/zz_generated.deepcopy.go", "package v1\n", "generated-name", false],
    ["node_modules", "node_modules/left-pad/index.js", "module.exports = 1;\n", "vendored:node_modules", true],
    ["nested node_modules", "packages/web/node_modules/x/a.js", "x\n", "vendored:node_modules", true],
    ["vendor", "vendor/github.com/pkg/errors/errors.go", "package errors\n", "vendored:vendor", true],
    ["third_party", "src/third_party/zlib/zlib.h", "", "vendored:third_party", true],
    ["third-party", "third-party/lib/a.c", "", "vendored:third-party", true],
    ["bower_components", "bower_components/jquery/jquery.js", "", "vendored:bower_components", true],
    ["Pods", "ios/Pods/Alamofire/Source/AF.swift", "", "vendored:pods", true],
    ["pip _vendor", "src/pip/_vendor/rich/console.py", "", "vendored:_vendor", true],
    ["botocore vendored", "botocore/vendored/six.py", "", "vendored:vendored", true],
    ["astropy extern", "astropy/extern/ply/lex.py", "", "vendored:extern", true],
    ["a Python package's bundled library", "requests/packages/urllib3/connectionpool.py", "", "vendored:packages", true],
    ["dist", "dist/index.js", "x\n", "build-output:dist", false],
    ["build", "build/classes/A.class", null, "build-output:build", false],
    ["target", "target/release/app.d", "x\n", "build-output:target", false],
    ["out", "out/main.js", "x\n", "build-output:out", false],
    ["coverage", "coverage/lcov-report/index.html", "x\n", "build-output:coverage", false],
    ["monorepo package dist", "packages/ui/dist/index.js", "x\n", "build-output:dist", false],
    [".next anywhere", "apps/web/.next/server/page.js", "x\n", "build-output:.next", false],
    ["__pycache__ anywhere", "src/pkg/__pycache__/mod.cpython-312.pyc", null, "build-output:__pycache__", false],
    [".NET obj/Debug", "src/App/obj/Debug/net8.0/App.dll", null, "build-output:obj", false],
    [".NET bin/Release", "src/App/bin/Release/App.dll", null, "build-output:bin", false],
    ["maven module target/classes", "core/target/classes/App.class", null, "build-output:target", false],
  ];
  for (const [name, path, content, reason, vendored] of positives) {
    it(`positive: ${name} (${path})`, () => {
      assert.deepEqual(detectGenerated(path, content), { generated: true, vendored, reason });
    });
  }

  const negatives: readonly [name: string, path: string, content: string | null][] = [
    ["normal file mentioning generate/auto-generated/do not edit", "src/ids.ts", NORMAL_TS],
    ["comment line starting with a bare 'generated'", "src/cache.py", "# generated values are cached below\nCACHE = {}\n"],
    ["@Generated-free Java", "src/main/java/A.java", "package a;\n// generator for ids\nclass A { String generatedId; }\n"],
    ["Go file with DO NOT EDIT far below the head", "main.go", `package main\n${"// filler line\n".repeat(200)}// DO NOT EDIT\n`],
    ["min in the middle of a name", "src/admin.js", "export const a = 1;\n"],
    ["normal multi-line JS", "src/app.js", "const a = 1;\n".repeat(400)],
    ["long single-line non-JS data", "data/fixture.json", `[${"1,".repeat(2000)}1]`],
    ["short one-line JS", "src/one.js", "export default 42;"],
    ["lock-ish but not a lock file", "src/lock.ts", "export class Lock {}\n"],
    ["not a lock file name", "docs/yarn.lock.md", "# notes\n"],
    ["protobuf source", "proto/user.proto", 'syntax = "proto3";\n'],
    ["pb without suffix", "src/pb.go", "package src\n"],
    ["an installer definition committed under build/", "build/windows/installer.wxs", "<Wix/>\n"],
    ["a generator's template holding the marker it writes", "tools/gen/types.tpl", "// Code generated by goctl. DO NOT EDIT.\npackage types\n"],
    ["a Go constant holding the header a generator writes", "tools/util/head.go", 'package util\n\nconst DoNotEditHead = "// Code generated by goctl. DO NOT EDIT!"\n'],
    ["a readme quoting generated output", "tools/model/readme.md", "# model\n\n```go\n// Code generated by goctl. DO NOT EDIT.\n```\n"],
    ["a packaging script committed under build/", "build/macOS/package.sh", "#!/bin/sh\n"],
    ["vendor-like file name", "src/vendor.ts", "export {};\n"],
    ["vendors folder (not vendor)", "src/vendors/a.ts", "export {};\n"],
    ["pods lowercase (k8s source)", "pkg/pods/list.go", "package pods\n"],
    ["a monorepo's packages folder", "packages/core/src/index.py", ""],
    ["a nested monorepo's packages folder, not Python", "web/packages/ui/index.js", ""],
    ["sympy's own external folder", "sympy/external/importtools.py", ""],
    ["build folder deep in a source tree", "scripts/build/Makefile", "all:\n"],
    ["tools/build (Linux kernel)", "tools/build/Makefile", "all:\n"],
    ["dist as file name", "src/dist.ts", "export {};\n"],
    ["bin scripts", "bin/rails", "#!/usr/bin/env ruby\n"],
    ["obj deep without Debug/Release", "src/geometry/obj/parser.ts", "export {};\n"],
    ["target folder in sources", "src/target/selector.ts", "export {};\n"],
    ["null content, plain path", "src/main.rs", null],
    ["empty content", "src/empty.ts", ""],
  ];
  for (const [name, path, content] of negatives) {
    it(`negative: ${name} (${path})`, () => {
      assert.deepEqual(detectGenerated(path, content), { generated: false, vendored: false, reason: null });
    });
  }

  it("content minification threshold is the named constant", () => {
    const justUnder = `${"a".repeat(MINIFIED_AVG_LINE_LENGTH - 10)}\n${"b".repeat(MINIFIED_AVG_LINE_LENGTH - 10)}`;
    const justOver = `${"a".repeat(MINIFIED_AVG_LINE_LENGTH + 10)}\n${"b".repeat(MINIFIED_AVG_LINE_LENGTH + 10)}`;
    assert.equal(detectGenerated("x.js", justUnder).generated, false);
    assert.equal(detectGenerated("x.js", justOver).reason, "minified");
  });

  it("markers beyond the scanned head are ignored, inside it they count", () => {
    const near = `${"// x\n".repeat(100)}// @generated\n`; // ~500 chars in
    assert.equal(detectGenerated("a.ts", near).reason, "marker:@generated");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Secret file names
// ---------------------------------------------------------------------------------------------------------

describe("secretFileNameReason", () => {
  const positives: readonly [string, string][] = [
    [".env", "secret-file-name:.env"],
    ["services/api/.env", "secret-file-name:.env"],
    [".env.local", "secret-file-name:.env.*"],
    [".env.production", "secret-file-name:.env.*"],
    ["certs/server.pem", "secret-file-name:*.pem"],
    ["certs/server.key", "secret-file-name:*.key"],
    ["client.p12", "secret-file-name:*.p12"],
    ["client.pfx", "secret-file-name:*.pfx"],
    ["android/release.jks", "secret-file-name:*.jks"],
    ["android/debug.keystore", "secret-file-name:*.keystore"],
    ["home/.ssh/id_rsa", "secret-file-name:id_rsa"],
    ["id_dsa", "secret-file-name:id_dsa"],
    ["id_ecdsa", "secret-file-name:id_ecdsa"],
    ["id_ed25519", "secret-file-name:id_ed25519"],
    [".npmrc", "secret-file-name:.npmrc"],
    [".pypirc", "secret-file-name:.pypirc"],
    [".netrc", "secret-file-name:.netrc"],
    ["web/.htpasswd", "secret-file-name:.htpasswd"],
    ["config/credentials.json", "secret-file-name:credentials.json"],
    ["config/secrets.yml", "secret-file-name:secrets.yml"],
    ["config/secrets.yaml", "secret-file-name:secrets.yaml"],
    ["infra/prod.tfvars", "secret-file-name:*.tfvars"],
    ["gcp/service-account.json", "secret-file-name:service-account*.json"],
    ["gcp/service-account-prod.json", "secret-file-name:service-account*.json"],
  ];
  for (const [path, reason] of positives) it(`positive: ${path}`, () => assert.equal(secretFileNameReason(path), reason));

  const negatives = [
    ".env.example",
    ".env.sample",
    ".env.template",
    "app/.env.local.example",
    "id_rsa.pub",
    "id_ed25519.pub",
    "src/env.ts",
    "docs/environment.md",
    "src/keys.ts",
    "src/pem.go",
    "credentials.ts",
    "secrets.md",
    "variables.tf",
    "service-account.ts",
    "README.md",
  ];
  for (const path of negatives) it(`negative: ${path}`, () => assert.equal(secretFileNameReason(path), null));
});

// ---------------------------------------------------------------------------------------------------------
// Secret scanning
// ---------------------------------------------------------------------------------------------------------

// Fixture secrets are assembled at runtime so this file does not itself contain scanner-matching literals.
const j = (...parts: string[]): string => parts.join("");
const FAKE = {
  awsKeyId: j("AKIA", "Z7Q3LMXWP4RT2KVN"),
  awsSecret: j("k9Qw3", "rTy7UiOp1AsDf4GhJk6LzXc8VbNm2Qw5ErT"), // 40 chars
  githubClassic: j("ghp", "_", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
};

describe("secret scanner", () => {
  const scanner = createSecretScanner();

  it("finds an AWS key pair in a config file, with 1-based lines", async () => {
    const content = [
      "[default]", // 1
      "region = eu-west-1", // 2
      `aws_access_key_id = ${FAKE.awsKeyId}`, // 3
      `aws_secret_access_key = ${FAKE.awsSecret}`, // 4
      "",
    ].join("\n");
    const findings = await scanner.scan("deploy/aws/credentials", content);
    assert.deepEqual(findings, [
      { ruleId: "aws-access-key-id", line: 3 },
      { ruleId: "aws-secret-access-key", line: 4 },
    ]);
  });

  it("ignores AWS's documented example keys (their values say EXAMPLE)", async () => {
    const content = j("aws_access_key_id = AKIAIOSFODNN7", "EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY", "EXAMPLEKEY\n");
    assert.deepEqual(await scanner.scan("docs/aws.ini", content), []);
  });

  it("a normal source file yields no findings", async () => {
    const content = [
      "import { readFile } from 'node:fs/promises';",
      "export async function loadConfig(path: string): Promise<Config> {",
      "  const password = process.env.DB_PASSWORD; // read from the environment",
      "  const url = new URL('https://example.com/api');",
      "  return JSON.parse(await readFile(path, 'utf8')) as Config;",
      "}",
    ].join("\n");
    assert.equal(holdsCredential(content), false);
    assert.deepEqual(await scanner.scan("src/config.ts", content), []);
  });

  it("reports findings on the right lines in a larger file", async () => {
    const content = `${"const a = 1;\n".repeat(41)}const token = "${FAKE.githubClassic}";\n`;
    assert.deepEqual(await scanner.scan("src/client.ts", content), [{ ruleId: "github-classic-token", line: 42 }]);
  });

  // One sample per rule of secretlint's recommended preset (the reference the scan's scope was checked against,
  // test/fixtures/secret-formats): each is reported under one of the rules coverage.json maps that rule to.
  const opsJson = (() => {
    let pad = "";
    for (;;) {
      const json = JSON.stringify({ email: "svc@1passwordserviceaccounts.lcl", secretKey: "A3-C4ZJMN-PQTZTL-HGL84", pad });
      const b64 = Buffer.from(json).toString("base64");
      if (b64.endsWith("fQ==") && b64.length > 110) return b64;
      pad += "x";
    }
  })();
  const pem = j("-----BEGIN RSA PRIV", "ATE KEY-----\nMIIEpAIBAAKCAQEA", "q7".repeat(70), "\n-----END RSA PRIV", "ATE KEY-----\n");
  const rules: readonly [rule: string, path: string, content: string][] = [
    ["aws", "a.env", `AWS_SECRET_ACCESS_KEY=${FAKE.awsSecret}\n`],
    ["privatekey", "key.txt", pem],
    ["gcp", "sa.json", JSON.stringify({ type: "service_account", private_key_id: "abc", private_key: pem })],
    ["npm", "a.env", j("NPM_TOKEN=npm", "_", "aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6", "\n")],
    ["npm", "web/.npmrc", j("//npm.pkg.example/:_auth", "Token=0a1b2c3d-aaaa-bbbb-cccc-0123456789ab\n")],
    ["basicauth", "a.env", j("URL=https://deploy:Zq8wLk2mPx", "@api.internal.io/x\n")],
    ["database-connection-string", "a.env", j("DATABASE_URL=postgres://app:S3cr3tPw9x", "@db.internal:5432/app\n")],
    ["database-connection-string", "a.env", j("MONGO_URL=mongodb+srv://app:S3cr3tPw9x", "@cluster0.ab12c.mongodb.net/db\n")],
    ["slack", "a.env", j("SLACK=xo", "xb-1234567890-1234567890-abcdefghijklmnopqrstuvwx\n")],
    ["slack", "a.env", j("HOOK=https://hooks.slack", ".com/services/T0ABCDEFG/B0ABCDEFG/abcdefghijklmnopqrstuvwx\n")],
    ["sendgrid", "a.env", j("SENDGRID=S", "G.abcdefghijklmnopqrstuv.ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopq\n")],
    ["shopify", "a.env", j("SHOPIFY=shp", "at_", "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6\n")],
    ["github", "a.env", `GH=${FAKE.githubClassic}\n`],
    ["github", "a.env", j("GH=github", "_pat_", "A1b2C3d4E5f6G7h8I9j0K1", "_", "l2M3n4O5p6Q7r8S9t0U1v2W3x4Y5z6A7b8C9d0E1f2G3h4I5j6K7l8M9n0O", "\n")],
    ["gitlab", "a.env", j("GL=glp", "at-", "x1Y2z3W4v5U6t7S8r9Q0\n")],
    ["grafana", "a.env", j("GRAFANA=gl", "sa_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6", "_", "0a1b2c3d\n")],
    ["openai", "a.env", j("OPENAI=sk-", "A1b2C3d4E5f6G7h8I9j0", "T3Blbk", "FJ", "K1l2M3n4O5p6Q7r8S9t0\n")],
    ["anthropic", "a.env", j("ANTHROPIC=sk-", "ant-api03-", "A1b2C3d4E5".repeat(9), "AA\n")],
    ["groq", "a.env", j("GROQ=gs", "k_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4Y5z6\n")],
    ["huggingface", "a.env", j("HF=h", "f_", "AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh\n")],
    ["linear", "a.env", j("LINEAR=lin", "_api_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6\n")],
    ["notion", "a.env", j("NOTION=nt", "n_", "12345678901", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r", "\n")],
    ["1password", "a.env", j("OP=op", "s_", opsJson, "\n")],
    ["hashicorp-vault", "a.env", j("VAULT=hv", "s.", "A1b2C3d4E5".repeat(10), "\n")],
    ["vercel", "a.env", j("VERCEL=vc", "p_", "A1b2C3d4E5f6G7h8I9j0K1l2\n")],
    ["databricks", "a.env", j("DATABRICKS=da", "pi", "0123456789abcdef0123456789abcdef\n")],
    ["docker", "a.env", j("DOCKER=dckr", "_pat_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n\n")],
    ["figma", "a.env", j("FIGMA=fig", "d_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0\n")],
  ];
  for (const [i, [rule, path, content]] of rules.entries()) {
    it(`the scan reports what secretlint's ${rule} rule does #${i}`, async () => {
      const ours = new Set(COVERAGE.secretlint.filter((e) => e.rule === `@secretlint/secretlint-rule-${rule}`).flatMap((e) => e.ours ?? []));
      assert.ok(ours.size > 0, `coverage.json maps ${rule}`);
      assert.equal(holdsCredential(content), true);
      const findings = await scanner.scan(path, content);
      assert.ok(
        findings.some((f) => ours.has(f.ruleId)),
        `expected one of ${[...ours].join(", ")}, got ${JSON.stringify(findings)}`,
      );
      assert.ok(findings.every((f) => f.line >= 1));
    });
  }

  it("does not report a bare AWS account id (suppressed as noise)", async () => {
    assert.deepEqual(await scanner.scan("a.yml", "aws_account_id: 123456789012\naws_secret_access_key: none\n"), []);
  });

  it("exports a stable scan-error rule id", () => {
    assert.equal(SCAN_ERROR_RULE_ID, "repoctx/secret-scan-error");
  });
});
