import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { detectLanguage } from "../src/indexer/classify/language.js";
import { buildGraphFrom, isManifestPath, moduleOf, testCommandFor } from "../src/indexer/knowledge/manifests.js";
import type { BuildGraph, ManifestFile, PathInfo, RepoModule } from "../src/core/knowledge.js";

/**
 * A repository as the indexer hands it over: every key is an indexed path; a string value is the text of a
 * manifest (kept only when isManifestPath accepts it, as the indexer does), null a file whose text is not needed.
 */
type Repo = Record<string, string | null>;

function inputs(repo: Repo): { manifests: ManifestFile[]; paths: PathInfo[] } {
  const manifests: ManifestFile[] = [];
  const paths: PathInfo[] = [];
  for (const [path, content] of Object.entries(repo)) {
    paths.push({ path, language: detectLanguage(path) });
    if (content !== null && isManifestPath(path)) manifests.push({ path, content });
  }
  return { manifests, paths };
}

function graphOf(repo: Repo): BuildGraph {
  const { manifests, paths } = inputs(repo);
  return buildGraphFrom(manifests, paths);
}

function mod(g: BuildGraph, name: string): RepoModule {
  const m = g.modules.find((x) => x.name === name);
  assert.ok(m, `module ${name} in ${g.modules.map((x) => x.name).join(", ")}`);
  return m;
}

function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

// ---------------------------------------------------------------------------------------------------------
// Maven
// ---------------------------------------------------------------------------------------------------------

const ROOT_POM = `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>acme-parent</artifactId>
  <version>1.0.0</version>
  <packaging>pom</packaging>
  <modules>
    <module>api</module>
    <module>core</module>
    <module>services/pricing</module>
    <module>missing</module>
  </modules>
</project>
`;
const API_POM = `<project>
  <parent><groupId>com.acme</groupId><artifactId>acme-parent</artifactId><version>1.0.0</version></parent>
  <artifactId>api</artifactId>
</project>
`;
const CORE_POM = `<project>
  <parent><groupId>com.acme</groupId><artifactId>acme-parent</artifactId><version>1.0.0</version></parent>
  <artifactId>core</artifactId>
  <dependencies>
    <dependency><groupId>\${project.groupId}</groupId><artifactId>api</artifactId><version>\${project.version}</version></dependency>
    <dependency><groupId>org.other</groupId><artifactId>pricing</artifactId><version>2.0</version></dependency>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><scope>test</scope></dependency>
  </dependencies>
</project>
`;
const PRICING_POM = `<project>
  <parent><groupId>com.acme</groupId><artifactId>acme-parent</artifactId><version>1.0.0</version></parent>
  <artifactId>pricing</artifactId>
  <dependencies>
    <dependency><groupId>com.acme</groupId><artifactId>core</artifactId></dependency>
  </dependencies>
  <build>
    <plugins>
      <plugin><groupId>org.springframework.boot</groupId><artifactId>spring-boot-maven-plugin</artifactId></plugin>
    </plugins>
  </build>
</project>
`;

function mavenRepo(withWrapper: boolean): Repo {
  const repo: Repo = {
    "pom.xml": ROOT_POM,
    "api/pom.xml": API_POM,
    "api/src/main/java/com/acme/api/Api.java": null,
    "core/pom.xml": CORE_POM,
    "core/src/main/java/com/acme/core/Foo.java": null,
    "core/src/main/java/com/acme/core/Bar.java": null,
    "core/src/test/java/com/acme/core/FooTest.java": null,
    "core/src/test/resources/fixture.json": null,
    "services/pricing/pom.xml": PRICING_POM,
    "services/pricing/src/main/java/com/acme/pricing/App.java": null,
    "services/pricing/src/test/java/com/acme/pricing/QuoteServiceTest.java": null,
    "README.md": null,
  };
  if (withWrapper) {
    repo["mvnw"] = null;
    repo["mvnw.cmd"] = null;
  }
  return repo;
}

describe("Maven", () => {
  const g = graphOf(mavenRepo(true));

  it("makes every pom.xml a module named by its artifactId, sorted by path", () => {
    assert.deepEqual(
      g.modules.map((m) => [m.name, m.path, m.manifest, m.buildSystem]),
      [
        ["acme-parent", "", "pom.xml", "maven"],
        ["api", "api", "api/pom.xml", "maven"],
        ["core", "core", "core/pom.xml", "maven"],
        ["pricing", "services/pricing", "services/pricing/pom.xml", "maven"],
      ],
    );
    assert.deepEqual(g.buildSystems, ["maven"]);
  });

  it("resolves internal dependencies by groupId and artifactId (an external artifact of the same name is not one)", () => {
    assert.deepEqual(mod(g, "core").dependsOn, ["api"]);
    assert.deepEqual(mod(g, "pricing").dependsOn, ["core"]);
    assert.deepEqual(g.edges, [
      { from: "core", to: "api" },
      { from: "pricing", to: "core" },
    ]);
  });

  it("uses the wrapper and -pl with the folder relative to the aggregator", () => {
    assert.equal(mod(g, "core").testCommand, "./mvnw -pl core test");
    assert.equal(mod(g, "core").buildCommand, "./mvnw -pl core package");
    assert.equal(mod(g, "pricing").testCommand, "./mvnw -pl services/pricing test");
    assert.equal(mod(g, "acme-parent").testCommand, "./mvnw test");
    assert.equal(mod(g, "acme-parent").buildCommand, "./mvnw package");
    assert.equal(mod(g, "core").commandSource, "pom.xml <modules>");
    assert.equal(mod(g, "core").testRunner, "maven");
    assert.equal(g.rootTestCommand, "./mvnw test");
  });

  it("narrows to one test class with -Dtest", () => {
    const core = mod(g, "core");
    assert.equal(testCommandFor(core, { path: "core/src/test/java/com/acme/core/FooTest.java" }), "./mvnw -pl core -Dtest=FooTest test");
    assert.equal(
      testCommandFor(mod(g, "pricing"), { path: "services/pricing/src/test/java/com/acme/pricing/QuoteServiceTest.java", className: "QuoteServiceTest" }),
      "./mvnw -pl services/pricing -Dtest=QuoteServiceTest test",
    );
    assert.equal(
      testCommandFor(core, { path: "core/src/test/java/com/acme/core/FooTest.java", testNames: ["adds", "subtracts"] }),
      "./mvnw -pl core -Dtest=FooTest#adds+subtracts test",
    );
  });

  it("derives type, main language and test folders", () => {
    assert.equal(mod(g, "pricing").type, "app");
    assert.equal(mod(g, "core").type, "library");
    assert.equal(mod(g, "core").mainLanguage, "java");
    assert.deepEqual(mod(g, "core").testPaths, ["core/src/test/java", "core/src/test/resources"]);
    assert.deepEqual(mod(g, "api").testPaths, []);
  });

  it("warns about a listed module without a pom.xml, with the line", () => {
    assert.deepEqual(g.warnings, [{ path: "pom.xml", line: 12, reason: "<module>missing</module> has no missing/pom.xml" }]);
  });

  it("falls back to mvn without a wrapper", () => {
    const plain = graphOf(mavenRepo(false));
    assert.equal(mod(plain, "core").testCommand, "mvn -pl core test");
    assert.equal(testCommandFor(mod(plain, "core"), { path: "core/src/test/java/com/acme/core/FooTest.java" }), "mvn -pl core -Dtest=FooTest test");
  });

  it("marks a module with only test sources as a test module", () => {
    const repo = mavenRepo(true);
    repo["pom.xml"] = ROOT_POM.replace("<module>missing</module>", "<module>it-tests</module>");
    repo["it-tests/pom.xml"] = `<project><parent><groupId>com.acme</groupId><artifactId>acme-parent</artifactId></parent><artifactId>it-tests</artifactId></project>`;
    repo["it-tests/src/test/java/com/acme/it/EndToEndIT.java"] = null;
    const g2 = graphOf(repo);
    assert.equal(mod(g2, "it-tests").type, "test");
    assert.deepEqual(mod(g2, "it-tests").testPaths, ["it-tests"]);
    assert.deepEqual(g2.warnings, []);
  });
});

// ---------------------------------------------------------------------------------------------------------
// npm / pnpm / yarn
// ---------------------------------------------------------------------------------------------------------

const NPM_ROOT = `{
  "name": "acme-monorepo",
  "private": true,
  "workspaces": ["packages/*", "tools/gen"],
  "scripts": {
    "build": "tsc -b",
    "test": "npm run build && node --import tsx --test --test-concurrency=2 test/*.test.ts"
  }
}
`;
const PKG_CORE = `{
  "name": "@acme/core",
  "version": "1.0.0",
  "main": "dist/index.js",
  "scripts": { "test": "vitest run", "build": "tsc" },
  "dependencies": { "left-pad": "^1.0.0" }
}
`;
const PKG_CLI = `{
  "name": "@acme/cli",
  "version": "1.0.0",
  "bin": {
    "acme": "./bin/acme.js"
  },
  "scripts": { "test": "cross-env NODE_ENV=test tsx --test test/*.test.ts" },
  "dependencies": { "@acme/core": "workspace:*" },
  "devDependencies": { "typescript": "^5" }
}
`;
const PKG_WEB = `{
  "name": "@acme/web",
  "scripts": { "start": "vite", "test": "echo \\"Error: no test specified\\" && exit 1" },
  "peerDependencies": { "@acme/core": "*" }
}
`;

function npmRepo(): Repo {
  return {
    "package.json": NPM_ROOT,
    "package-lock.json": null,
    "test/root.test.ts": null,
    "packages/core/package.json": PKG_CORE,
    "packages/core/src/index.ts": null,
    "packages/core/src/sum.test.ts": null,
    "packages/cli/package.json": PKG_CLI,
    "packages/cli/bin/acme.js": null,
    "packages/cli/src/main.ts": null,
    "packages/cli/test/main.test.ts": null,
    "packages/web/package.json": PKG_WEB,
    "packages/web/src/app.tsx": null,
    "node_modules/left-pad/package.json": `{ "name": "left-pad", "main": "index.js", "scripts": { "test": "jest" } }`,
    "node_modules/left-pad/index.js": null,
  };
}

describe("npm workspaces", () => {
  const g = graphOf(npmRepo());

  it("makes every non-vendored package.json a module with the package manager from the lockfile", () => {
    assert.deepEqual(
      g.modules.map((m) => [m.name, m.path, m.buildSystem]),
      [
        ["acme-monorepo", "", "npm"],
        ["@acme/cli", "packages/cli", "npm"],
        ["@acme/core", "packages/core", "npm"],
        ["@acme/web", "packages/web", "npm"],
      ],
    );
    assert.ok(!g.modules.some((m) => m.name === "left-pad"));
  });

  it("links workspace packages through dependencies and peerDependencies only", () => {
    assert.deepEqual(mod(g, "@acme/cli").dependsOn, ["@acme/core"]);
    assert.deepEqual(mod(g, "@acme/web").dependsOn, ["@acme/core"]);
    assert.deepEqual(mod(g, "@acme/core").dependsOn, []);
    assert.deepEqual(g.edges, [
      { from: "@acme/cli", to: "@acme/core" },
      { from: "@acme/web", to: "@acme/core" },
    ]);
  });

  it("builds workspace commands and detects the runner from the script", () => {
    const core = mod(g, "@acme/core");
    assert.equal(core.testCommand, "npm test -w @acme/core");
    assert.equal(core.buildCommand, "npm run build -w @acme/core");
    assert.equal(core.testRunner, "vitest");
    assert.equal(core.commandSource, "package.json scripts.test");
    const cli = mod(g, "@acme/cli");
    assert.equal(cli.testRunner, "node-test");
    assert.equal(cli.testFileCommand, "cd packages/cli && NODE_ENV=test node --import tsx --test");
    const root = mod(g, "acme-monorepo");
    assert.equal(root.testCommand, "npm test");
    assert.equal(root.testRunner, "node-test", "follows `npm run build` and finds node --test after it");
    assert.equal(root.testFileCommand, "node --import tsx --test");
    assert.equal(core.testFileCommand, "npm test -w @acme/core --", "vitest is the whole test script: arguments reach it");
    assert.equal(g.rootTestCommand, "npm test");
  });

  it("ignores npm's placeholder test script", () => {
    const web = mod(g, "@acme/web");
    assert.equal(web.testCommand, null);
    assert.equal(web.testRunner, null);
    assert.equal(web.type, "app", "no main, but a start script");
  });

  it("narrows to one file the way the runner does", () => {
    assert.equal(testCommandFor(mod(g, "@acme/core"), { path: "packages/core/src/sum.test.ts" }), "npm test -w @acme/core -- src/sum.test.ts");
    assert.equal(
      testCommandFor(mod(g, "@acme/core"), { path: "packages/core/src/sum.test.ts", testNames: ["adds"] }),
      "npm test -w @acme/core -- -t 'adds' src/sum.test.ts",
    );
    assert.equal(testCommandFor(mod(g, "@acme/cli"), { path: "packages/cli/test/main.test.ts" }), "cd packages/cli && NODE_ENV=test node --import tsx --test test/main.test.ts");
    assert.equal(testCommandFor(mod(g, "acme-monorepo"), { path: "test/root.test.ts" }), "node --import tsx --test test/root.test.ts");
    assert.equal(testCommandFor(mod(g, "@acme/core"), { path: "packages/cli/test/main.test.ts" }), null, "not a file of that module");
  });

  it("records bin and main entrypoints with their manifest lines", () => {
    assert.deepEqual(g.entrypoints, [
      { type: "cli-bin", path: "packages/cli/package.json", name: "acme", module: "@acme/cli", startLine: 5, endLine: 5, target: "packages/cli/bin/acme.js" },
      { type: "package-main", path: "packages/core/package.json", name: "@acme/core", module: "@acme/core", startLine: 4, endLine: 4, target: "packages/core/dist/index.js" },
    ]);
    assert.equal(mod(g, "@acme/cli").type, "app");
    assert.equal(mod(g, "@acme/core").type, "library");
  });

  it("derives test paths and main language from the module's own files", () => {
    assert.deepEqual(mod(g, "@acme/core").testPaths, ["packages/core/**/*.test.ts"]);
    assert.deepEqual(mod(g, "@acme/cli").testPaths, ["packages/cli/test"]);
    assert.deepEqual(mod(g, "acme-monorepo").testPaths, ["test"]);
    assert.equal(mod(g, "@acme/web").mainLanguage, "tsx");
  });

  it("warns about a literal workspace entry without a package.json", () => {
    assert.deepEqual(g.warnings, [{ path: "package.json", line: 4, reason: 'workspace "tools/gen" has no package.json' }]);
  });

  it("honours packageManager and yarn workspaces { packages }", () => {
    const yarn = graphOf({
      "package.json": JSON.stringify({ name: "y", packageManager: "yarn@4.1.0", workspaces: { packages: ["libs/*"] } }),
      "package-lock.json": null, // stale lockfile: the declared package manager wins
      "libs/a/package.json": JSON.stringify({ name: "a", scripts: { test: "jest --ci" } }),
      "libs/a/index.test.js": null,
    });
    const a = mod(yarn, "a");
    assert.equal(a.buildSystem, "yarn");
    assert.equal(a.testCommand, "yarn workspace a test");
    assert.equal(a.testRunner, "jest");
    assert.equal(testCommandFor(a, { path: "libs/a/index.test.js" }), "yarn workspace a test -- index.test.js");
  });

  it("runs the runner directly when arguments appended to the test script would not reach it", () => {
    const g2 = graphOf({
      "package.json": JSON.stringify({
        name: "r",
        workspaces: ["pkgs/*"],
        scripts: { test: "pnpm test-unit && pnpm test-e2e", "test-unit": "vitest run --config vitest.unit.ts --reporter dot", "test-e2e": "playwright test" },
      }),
      "pnpm-lock.yaml": null,
      "pkgs/lint/package.json": JSON.stringify({ name: "lint", scripts: { test: "NODE_OPTIONS='--experimental-vm-modules --no-warnings' jest --ci -c jest.unit.js && eslint ." } }),
      "pkgs/esm/package.json": JSON.stringify({ name: "esm", scripts: { test: 'cross-env NODE_OPTIONS="--experimental-vm-modules --no-warnings" jest' } }),
      "pkgs/x/package.json": JSON.stringify({ name: "x" }),
    });
    const root = mod(g2, "r");
    assert.equal(root.testRunner, "vitest");
    assert.equal(root.testFileCommand, "npx vitest run --config vitest.unit.ts");
    assert.equal(testCommandFor(root, { path: "src/a.test.ts" }), "npx vitest run --config vitest.unit.ts src/a.test.ts");
    // a package without a test script is tested by the root's runner, with the path from the root
    assert.equal(testCommandFor(mod(g2, "x"), { path: "pkgs/x/y.test.ts" }, g2), "npx vitest run --config vitest.unit.ts pkgs/x/y.test.ts");
    assert.equal(mod(g2, "lint").testFileCommand, "cd pkgs/lint && NODE_OPTIONS='--experimental-vm-modules --no-warnings' npx jest -c jest.unit.js");
    assert.equal(mod(g2, "esm").testFileCommand, "pnpm --filter esm test --");
    assert.equal(mod(g2, "esm").testRunner, "jest");
  });

  it("uses the root's jest for a package without tests of its own when the graph is given", () => {
    const jestRoot = graphOf({
      "package.json": JSON.stringify({ name: "r", workspaces: ["pkgs/*"], scripts: { test: "jest" } }),
      "pkgs/x/package.json": JSON.stringify({ name: "x" }),
      "pkgs/x/x.test.ts": null,
    });
    const x = mod(jestRoot, "x");
    assert.equal(testCommandFor(x, { path: "pkgs/x/x.test.ts" }), null);
    assert.equal(testCommandFor(x, { path: "pkgs/x/x.test.ts" }, jestRoot), "npm test -- pkgs/x/x.test.ts");
  });
});

describe("pnpm workspaces", () => {
  const g = graphOf({
    "package.json": JSON.stringify({ name: "root", private: true, scripts: { test: "pnpm -r test" } }),
    "pnpm-lock.yaml": null,
    "pnpm-workspace.yaml": "packages:\n  - 'apps/*'\n  - 'libs/**'\n  - '!libs/internal/**'\n",
    "apps/web/package.json": JSON.stringify({ name: "web", scripts: { test: "vitest", build: "vite build" }, dependencies: { ui: "workspace:^" } }),
    "apps/web/src/main.ts": null,
    "libs/ui/package.json": JSON.stringify({ name: "ui", main: "index.js", scripts: { test: "mocha --require ts-node/register 'test/**/*.ts'" } }),
    "libs/ui/test/button.ts": null,
    "libs/internal/x/package.json": JSON.stringify({ name: "x", scripts: { test: "node --test" } }),
  });

  it("matches member globs with ** and ! exclusions", () => {
    assert.equal(mod(g, "web").testCommand, "pnpm --filter web test");
    assert.equal(mod(g, "web").buildCommand, "pnpm --filter web run build");
    assert.equal(mod(g, "ui").testCommand, "pnpm --filter ui test");
    // excluded from the workspace: run in its own folder, still with the repository's package manager
    assert.equal(mod(g, "x").testCommand, "cd libs/internal/x && pnpm test");
    assert.ok(g.modules.every((m) => m.buildSystem === "pnpm"));
    assert.deepEqual(g.buildSystems, ["pnpm"]);
    assert.deepEqual(g.edges, [{ from: "web", to: "ui" }]);
  });

  it("keeps mocha's flags for a one-file run and treats recursive runs as plain scripts", () => {
    assert.equal(mod(g, "ui").testRunner, "mocha");
    assert.equal(testCommandFor(mod(g, "ui"), { path: "libs/ui/test/button.ts" }), "cd libs/ui && npx mocha --require ts-node/register test/button.ts");
    assert.equal(mod(g, "root").testRunner, "npm-script");
    assert.equal(testCommandFor(mod(g, "root"), { path: "apps/web/src/main.ts" }), null);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Go
// ---------------------------------------------------------------------------------------------------------

describe("Go", () => {
  const g = graphOf({
    "go.work": "go 1.22\n\nuse (\n\t./svc\n\t./lib\n\t./gone\n)\n",
    "svc/go.mod":
      "module example.com/svc\n\ngo 1.22\n\nrequire (\n\texample.com/lib v0.0.0 // indirect\n\tgithub.com/x/y v1.2.3\n)\n\nreplace example.com/lib => ../lib\n",
    "svc/cmd/server/main.go": null,
    "svc/internal/h/h.go": null,
    "svc/internal/h/h_test.go": null,
    "lib/go.mod": "module example.com/lib\n\ngo 1.22\n",
    "lib/lib.go": null,
    "lib/lib_test.go": null,
    "lib/testdata/input.go": null,
  });

  it("names modules by module path and links require/replace", () => {
    assert.deepEqual(
      g.modules.map((m) => [m.name, m.path, m.type]),
      [
        ["example.com/lib", "lib", "library"],
        ["example.com/svc", "svc", "app"],
      ],
    );
    assert.deepEqual(g.edges, [{ from: "example.com/svc", to: "example.com/lib" }]);
  });

  it("runs go test in the module folder and narrows to a package and test names", () => {
    const svc = mod(g, "example.com/svc");
    assert.equal(svc.testCommand, "cd svc && go test ./...");
    assert.equal(svc.testRunner, "go");
    assert.equal(
      testCommandFor(svc, { path: "svc/internal/h/h_test.go", testNames: ["TestA", "TestB"] }),
      "cd svc && go test ./internal/h -run '^(TestA|TestB)$'",
    );
    assert.equal(testCommandFor(mod(g, "example.com/lib"), { path: "lib/lib_test.go" }), "cd lib && go test .");
  });

  it("tests the whole workspace from go.work and warns about a missing module", () => {
    assert.equal(g.rootTestCommand, "go test ./lib/... ./svc/...");
    assert.deepEqual(g.warnings, [{ path: "go.work", line: 6, reason: "use ./gone: no go.mod in that folder" }]);
    assert.deepEqual(mod(g, "example.com/lib").testPaths, ["lib/**/*_test.go"]);
    assert.equal(mod(g, "example.com/lib").mainLanguage, "go");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Gradle
// ---------------------------------------------------------------------------------------------------------

describe("Gradle", () => {
  const g = graphOf({
    "settings.gradle.kts": `rootProject.name = "shop"
// include(":commented-out")
include(":app", ":libs:core")
include(
    ":libs:util",
)
include(":legacy")
project(":legacy").projectDir = file("old/legacy")
/* include(":also-commented") */
`,
    "gradlew": null,
    "build.gradle.kts": `plugins { java }`,
    "app/build.gradle.kts": `plugins {
    application
}
dependencies {
    implementation(project(":libs:core"))
    implementation(projects.libs.util)
}
application { mainClass.set("com.acme.AppKt") }
`,
    "app/src/main/kotlin/com/acme/App.kt": null,
    "libs/core/build.gradle.kts": `buildscript { dependencies { classpath(project(":app")) } }
dependencies {
    api(project(path = ":libs:util"))
}
`,
    "libs/core/src/main/kotlin/com/acme/core/Core.kt": null,
    "libs/core/src/test/kotlin/com/acme/core/FooTest.kt": null,
    "libs/util/build.gradle": `dependencies { testImplementation project(':libs:core') }`,
    "old/legacy/build.gradle": `apply plugin: 'java'`,
    "tools/build.gradle": `apply plugin: 'java'`,
  });

  it("reads includes, rootProject.name and projectDir, ignoring comments", () => {
    assert.deepEqual(
      g.modules.map((m) => [m.name, m.path, m.manifest]),
      [
        ["shop", "", "build.gradle.kts"],
        [":app", "app", "app/build.gradle.kts"],
        [":libs:core", "libs/core", "libs/core/build.gradle.kts"],
        [":libs:util", "libs/util", "libs/util/build.gradle"],
        [":legacy", "old/legacy", "old/legacy/build.gradle"],
      ],
    );
  });

  it("links project(...) and type-safe accessors in dependencies, not buildscript", () => {
    assert.deepEqual(g.edges, [
      { from: ":app", to: ":libs:core" },
      { from: ":app", to: ":libs:util" },
      { from: ":libs:core", to: ":libs:util" },
      { from: ":libs:util", to: ":libs:core" },
    ]);
    assert.equal(mod(g, ":app").type, "app");
    assert.equal(mod(g, ":libs:core").type, "library");
  });

  it("uses the wrapper and project task paths", () => {
    assert.equal(mod(g, ":libs:core").testCommand, "./gradlew :libs:core:test");
    assert.equal(mod(g, ":libs:core").buildCommand, "./gradlew :libs:core:build");
    assert.equal(mod(g, "shop").testCommand, "./gradlew test");
    assert.equal(g.rootTestCommand, "./gradlew test");
    const core = mod(g, ":libs:core");
    const file = "libs/core/src/test/kotlin/com/acme/core/FooTest.kt";
    assert.equal(testCommandFor(core, { path: file, qualifiedClass: "com.acme.FooTest" }), "./gradlew :libs:core:test --tests 'com.acme.FooTest'");
    assert.equal(testCommandFor(core, { path: file }), "./gradlew :libs:core:test --tests 'com.acme.core.FooTest'");
    assert.deepEqual(core.testPaths, ["libs/core/src/test/kotlin"]);
  });

  it("warns about a build file no settings file includes", () => {
    assert.deepEqual(g.warnings, [{ path: "tools/build.gradle", line: null, reason: "not included by settings.gradle.kts; not a project of that build" }]);
  });

  it("reads Groovy includes without parentheses, over several lines", () => {
    const groovy = graphOf({
      "settings.gradle": "rootProject.name = 'demo'\ninclude 'a',\n        'b:c'\n",
      "a/build.gradle": "dependencies { implementation project(':b:c') }",
      "b/c/build.gradle": "",
    });
    assert.deepEqual(
      groovy.modules.map((m) => [m.name, m.path, m.testCommand]),
      [
        ["demo", "", "gradle test"],
        [":a", "a", "gradle :a:test"],
        [":b:c", "b/c", "gradle :b:c:test"],
      ],
    );
    assert.deepEqual(groovy.edges, [{ from: ":a", to: ":b:c" }]);
    assert.equal(testCommandFor(mod(groovy, "demo"), { path: "src/test/java/DemoTest.java", className: "DemoTest" }), "gradle :test --tests 'DemoTest'");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Cargo
// ---------------------------------------------------------------------------------------------------------

describe("Cargo", () => {
  const g = graphOf({
    "Cargo.toml": `[workspace]
members = ["crates/*"]
exclude = ["crates/experimental"]

[workspace.dependencies]
core-lib = { path = "crates/core-lib" }
`,
    "crates/core-lib/Cargo.toml": `[package]\nname = "core-lib"\nversion = "0.1.0"\n`,
    "crates/core-lib/src/lib.rs": null,
    "crates/core-lib/tests/integration.rs": null,
    "crates/cli/Cargo.toml": `[package]
name = "cli"
version = "0.1.0"

[dependencies]
core-lib = { workspace = true }
serde = "1"

[[bin]]
name = "tool"
path = "src/main.rs"
`,
    "crates/cli/src/main.rs": null,
    "crates/experimental/Cargo.toml": `[package]\nname = "exp"\n\n[dependencies]\ncli = "0.1"\n`,
    "crates/experimental/src/lib.rs": null,
  });

  it("reads workspace members with exclusions and path/workspace dependencies", () => {
    assert.deepEqual(
      g.modules.map((m) => [m.name, m.path, m.type]),
      [
        ["cli", "crates/cli", "app"],
        ["core-lib", "crates/core-lib", "library"],
        ["exp", "crates/experimental", "library"],
      ],
    );
    // exp is outside the workspace: its "cli" is the published crate, not the member
    assert.deepEqual(g.edges, [{ from: "cli", to: "core-lib" }]);
  });

  it("tests members with -p and integration tests with --test", () => {
    const core = mod(g, "core-lib");
    assert.equal(core.testCommand, "cargo test -p core-lib");
    assert.equal(testCommandFor(core, { path: "crates/core-lib/tests/integration.rs" }), "cargo test -p core-lib --test integration");
    assert.equal(testCommandFor(core, { path: "crates/core-lib/src/lib.rs", testNames: ["parses"] }), "cargo test -p core-lib -- parses");
    assert.equal(mod(g, "exp").testCommand, "cd crates/experimental && cargo test -p exp");
    assert.equal(g.rootTestCommand, "cargo test --workspace");
    assert.deepEqual(core.testPaths, ["crates/core-lib/tests"]);
  });

  it("records [[bin]] targets with their line", () => {
    assert.deepEqual(g.entrypoints, [
      { type: "cli-bin", path: "crates/cli/Cargo.toml", name: "tool", module: "cli", startLine: 9, endLine: 9, target: "crates/cli/src/main.rs" },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Python
// ---------------------------------------------------------------------------------------------------------

describe("Python", () => {
  const g = graphOf({
    "pyproject.toml": `[project]
name = "my-app"
dependencies = ["requests>=2", "My_Lib"]

[project.optional-dependencies]
test = ["pytest>=7"]

[project.scripts]
myapp = "my_app.cli:main"

[tool.pytest.ini_options]
testpaths = ["tests"]

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"
`,
    "my_app/cli.py": null,
    "tests/test_cli.py": null,
    "libs/my-lib/setup.cfg": "[metadata]\nname = my-lib\n\n[options]\ninstall_requires =\n    six\n",
    "libs/my-lib/setup.py": "from setuptools import setup\nsetup()\n",
    "libs/my-lib/my_lib/__init__.py": null,
    "libs/my-lib/tests/test_x.py": null,
    "plugins/extra/setup.py": "from setuptools import setup\nsetup(name='extra')\n",
    "plugins/extra/conftest.py": null,
    "plugins/extra/extra.py": null,
  });

  it("reads names from [project], setup.cfg [metadata] and the folder, and links normalized names", () => {
    assert.deepEqual(
      g.modules.map((m) => [m.name, m.path, m.manifest]),
      [
        ["my-app", "", "pyproject.toml"],
        ["my-lib", "libs/my-lib", "libs/my-lib/setup.cfg"],
        ["extra", "plugins/extra", "plugins/extra/setup.py"],
      ],
    );
    assert.deepEqual(g.edges, [{ from: "my-app", to: "my-lib" }]);
  });

  it("picks pytest when configured or when a conftest.py exists, else unittest", () => {
    const app = mod(g, "my-app");
    assert.equal(app.testRunner, "pytest");
    assert.equal(app.testCommand, "pytest");
    assert.equal(app.commandSource, "pyproject.toml [tool.pytest.ini_options]");
    assert.equal(app.buildCommand, "python -m build");
    assert.equal(app.type, "app");
    assert.equal(mod(g, "extra").testRunner, "pytest");
    assert.equal(mod(g, "extra").commandSource, "conftest.py");
    const lib = mod(g, "my-lib");
    assert.equal(lib.testRunner, "unittest");
    assert.equal(lib.testCommand, "cd libs/my-lib && python -m unittest discover");
    assert.equal(g.rootTestCommand, "pytest");
  });

  it("narrows pytest to node ids (path::test_name) and unittest to a dotted class", () => {
    assert.equal(
      testCommandFor(mod(g, "my-app"), { path: "tests/test_cli.py", testNames: ["test_a", "test_b"] }),
      "pytest tests/test_cli.py::test_a tests/test_cli.py::test_b",
    );
    assert.equal(testCommandFor(mod(g, "my-app"), { path: "tests/test_cli.py", className: "TestCli" }), "pytest tests/test_cli.py::TestCli");
    assert.equal(testCommandFor(mod(g, "my-app"), { path: "tests/test_cli.py", className: "test_cli" }), "pytest tests/test_cli.py", "the file stem is no class");
    assert.equal(
      testCommandFor(mod(g, "my-lib"), { path: "libs/my-lib/tests/test_x.py", className: "XTest" }),
      "cd libs/my-lib && python -m unittest tests.test_x.XTest",
    );
  });

  it("records [project.scripts] entrypoints with their line", () => {
    assert.deepEqual(g.entrypoints, [
      { type: "cli-bin", path: "pyproject.toml", name: "myapp", module: "my-app", startLine: 9, endLine: 9, target: "my_app.cli:main" },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// .NET
// ---------------------------------------------------------------------------------------------------------

const SLN = `
Microsoft Visual Studio Solution File, Format Version 12.00
# Visual Studio Version 17
Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Shop.Api", "src\\Shop.Api\\Shop.Api.csproj", "{11111111-1111-1111-1111-111111111111}"
EndProject
Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Shop.Core", "src\\Shop.Core\\Shop.Core.csproj", "{22222222-2222-2222-2222-222222222222}"
EndProject
Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Shop.Tests", "tests\\Shop.Tests\\Shop.Tests.csproj", "{33333333-3333-3333-3333-333333333333}"
EndProject
Project("{2150E333-8FDC-42A3-9474-1A3956D46DE8}") = "Solution Items", "Solution Items", "{44444444-4444-4444-4444-444444444444}"
EndProject
Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "Gone", "src\\Gone\\Gone.csproj", "{55555555-5555-5555-5555-555555555555}"
EndProject
`;

describe(".NET", () => {
  const g = graphOf({
    "Shop.sln": SLN,
    "src/Shop.Api/Shop.Api.csproj": `<Project Sdk="Microsoft.NET.Sdk.Web">
  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>
  <ItemGroup><ProjectReference Include="..\\Shop.Core\\Shop.Core.csproj" /></ItemGroup>
</Project>`,
    "src/Shop.Api/Program.cs": null,
    "src/Shop.Core/Shop.Core.csproj": `<Project Sdk="Microsoft.NET.Sdk"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>`,
    "src/Shop.Core/Cart.cs": null,
    "tests/Shop.Tests/Shop.Tests.csproj": `<Project Sdk="Microsoft.NET.Sdk">
  <ItemGroup>
    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.9.0" />
    <PackageReference Include="xunit" Version="2.7.0" />
  </ItemGroup>
  <ItemGroup>
    <ProjectReference Include="..\\..\\src\\Shop.Api\\Shop.Api.csproj" />
  </ItemGroup>
</Project>`,
    "tests/Shop.Tests/CartTests.cs": null,
  });

  it("reads projects, references and test SDKs", () => {
    assert.deepEqual(
      g.modules.map((m) => [m.name, m.path, m.type]),
      [
        ["Shop.Api", "src/Shop.Api", "app"],
        ["Shop.Core", "src/Shop.Core", "library"],
        ["Shop.Tests", "tests/Shop.Tests", "test"],
      ],
    );
    assert.deepEqual(g.edges, [
      { from: "Shop.Api", to: "Shop.Core" },
      { from: "Shop.Tests", to: "Shop.Api" },
    ]);
    assert.equal(mod(g, "Shop.Core").mainLanguage, "csharp");
  });

  it("tests the test project with a class filter and the solution from the root", () => {
    const tests = mod(g, "Shop.Tests");
    assert.equal(tests.testCommand, "dotnet test tests/Shop.Tests/Shop.Tests.csproj");
    assert.equal(tests.testRunner, "dotnet");
    assert.deepEqual(tests.testPaths, ["tests/Shop.Tests"]);
    assert.equal(
      testCommandFor(tests, { path: "tests/Shop.Tests/CartTests.cs", className: "CartTests" }),
      "dotnet test tests/Shop.Tests/Shop.Tests.csproj --filter FullyQualifiedName~CartTests",
    );
    assert.equal(mod(g, "Shop.Core").testCommand, null);
    assert.equal(g.rootTestCommand, "dotnet test Shop.sln");
  });

  it("warns about a project the solution lists but the repository lacks", () => {
    assert.deepEqual(g.warnings, [{ path: "Shop.sln", line: 12, reason: "project src\\Gone\\Gone.csproj listed in the solution does not exist" }]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Robustness, assignment, determinism
// ---------------------------------------------------------------------------------------------------------

describe("malformed manifests", () => {
  const repo: Repo = {
    "package.json": JSON.stringify({ name: "ok", scripts: { test: "jest" } }),
    "bad-pom/pom.xml": "<project>\n  <artifactId>x</artifactId>\n  <dependencies>\n</project>\n",
    "bad-npm/package.json": '{\n  "name": "bad",\n  "version": "1.0.0",\n}\n',
    "bad-cargo/Cargo.toml": '[package]\nname = "bad"\nversion = \n',
    "bad-pnpm/pnpm-workspace.yaml": "packages:\n  - 'a\n  - b: [\n",
    "bad-go/go.mod": "module example.com/bad\n\nrequire (\n\tgithub.com/x/y v1.0.0\n",
    "notes/package.json": "[1, 2, 3]",
  };

  it("records a warning with path and line for each, and keeps the rest", () => {
    const g = graphOf(repo);
    const byPath = new Map(g.warnings.map((w) => [w.path, w]));
    assert.equal(byPath.get("bad-pom/pom.xml")?.line, 4);
    assert.match(byPath.get("bad-pom/pom.xml")!.reason, /^invalid XML: /);
    assert.equal(byPath.get("bad-npm/package.json")?.line, 4);
    assert.match(byPath.get("bad-npm/package.json")!.reason, /^invalid JSON: /);
    assert.equal(byPath.get("bad-cargo/Cargo.toml")?.line, 3);
    assert.match(byPath.get("bad-cargo/Cargo.toml")!.reason, /^invalid TOML: /);
    assert.match(byPath.get("bad-pnpm/pnpm-workspace.yaml")!.reason, /^invalid YAML: /);
    assert.equal(byPath.get("bad-pnpm/pnpm-workspace.yaml")!.line, 4, "where the YAML parser notices the open quote");
    assert.deepEqual(byPath.get("bad-go/go.mod"), { path: "bad-go/go.mod", line: 3, reason: '"require (" block is never closed' });
    assert.deepEqual(byPath.get("notes/package.json"), { path: "notes/package.json", line: 1, reason: "package.json is not a JSON object" });
    // The valid manifests still make modules; the broken ones make none (the unterminated go.mod keeps its module).
    assert.deepEqual(
      g.modules.map((m) => m.name),
      ["ok", "example.com/bad"],
    );
    assert.equal(g.rootTestCommand, "npm test");
  });

  it("never throws, whatever the text", () => {
    const junk = ["", "\u0000\u0001", "<<<>>>", "{", "[[[", "include(", "module", "Project(", "]]]]", "\uFEFF{}"];
    for (const text of junk) {
      for (const name of ["pom.xml", "package.json", "Cargo.toml", "pyproject.toml", "setup.cfg", "go.mod", "go.work", "settings.gradle", "build.gradle.kts", "pnpm-workspace.yaml", "A.sln", "A.csproj", "A.slnx"]) {
        assert.doesNotThrow(() => buildGraphFrom([{ path: `x/${name}`, content: text }], [{ path: `x/${name}`, language: null }]), `${name}: ${json(text)}`);
      }
    }
  });

  it("warns about duplicate module names", () => {
    const g = graphOf({
      "a/package.json": JSON.stringify({ name: "same" }),
      "b/package.json": JSON.stringify({ name: "same" }),
    });
    assert.deepEqual(g.warnings, [{ path: "b/package.json", line: null, reason: 'duplicate module name "same" (also a/package.json)' }]);
  });
});

describe("isManifestPath", () => {
  it("accepts manifests by file name and rejects vendored, cached and fixture folders", () => {
    for (const p of ["pom.xml", "a/b/build.gradle.kts", "settings.gradle", "package.json", "pnpm-workspace.yaml", "go.mod", "go.work", "Cargo.toml", "pyproject.toml", "setup.cfg", "setup.py", "src/App/App.csproj", "Shop.sln"]) {
      assert.equal(isManifestPath(p), true, p);
    }
    for (const p of ["node_modules/x/package.json", "vendor/github.com/x/go.mod", "third_party/y/Cargo.toml", ".git/pom.xml", "test/fixtures/app/package.json", "pkg/testdata/go.mod", "README.md", "package.json.bak", "src/main.go", ".csproj"]) {
      assert.equal(isManifestPath(p), false, p);
    }
  });

  it("ignores vendored manifests even when they are passed in", () => {
    const g = buildGraphFrom(
      [
        { path: "package.json", content: JSON.stringify({ name: "app" }) },
        { path: "node_modules/dep/package.json", content: JSON.stringify({ name: "dep" }) },
      ],
      [
        { path: "package.json", language: "json" },
        { path: "node_modules/dep/package.json", language: "json" },
      ],
    );
    assert.deepEqual(
      g.modules.map((m) => m.name),
      ["app"],
    );
  });
});

describe("moduleOf", () => {
  const modules = graphOf({
    "package.json": JSON.stringify({ name: "root" }),
    "pom.xml": "<project><artifactId>server</artifactId></project>",
    "packages/a/package.json": JSON.stringify({ name: "a" }),
    "packages/a/nested/package.json": JSON.stringify({ name: "nested" }),
  }).modules;

  it("returns the innermost module, whatever the order of the list", () => {
    for (const list of [modules, [...modules].reverse()]) {
      assert.equal(moduleOf(list, "packages/a/nested/src/x.ts")?.name, "nested");
      assert.equal(moduleOf(list, "packages/a/src/x.ts")?.name, "a");
      assert.equal(moduleOf(list, "packages/a")?.name, "a");
      assert.equal(moduleOf(list, "packages/ab/x.ts")?.name, "root", "a sibling with a common prefix is not inside");
    }
    assert.equal(moduleOf(modules.filter((m) => m.path !== ""), "other/x.ts"), null);
  });

  it("settles a folder shared by two build systems by the file's ecosystem", () => {
    assert.equal(moduleOf(modules, "src/main/java/com/acme/Server.java")?.name, "server");
    assert.equal(moduleOf(modules, "web/app.ts")?.name, "root");
    assert.equal(moduleOf(modules, "pom.xml")?.name, "server");
    assert.equal(moduleOf(modules, "package.json")?.name, "root");
  });
});

describe("determinism", () => {
  it("gives the same JSON for the same input in any order", () => {
    const repos = [mavenRepo(true), npmRepo()];
    for (const repo of repos) {
      const { manifests, paths } = inputs(repo);
      const a = json(buildGraphFrom(manifests, paths));
      const b = json(buildGraphFrom([...manifests].reverse(), [...paths].reverse()));
      assert.equal(a, b);
      const g = JSON.parse(a) as BuildGraph;
      const sortedPaths = g.modules.map((m) => m.path);
      assert.deepEqual(sortedPaths, [...sortedPaths].sort());
      for (const m of g.modules) {
        assert.deepEqual(m.dependsOn, [...m.dependsOn].sort());
        assert.deepEqual(m.testPaths, [...m.testPaths].sort());
      }
    }
  });

  it("handles a large path list in one pass", () => {
    const paths: PathInfo[] = [];
    for (let i = 0; i < 80_000; i++) paths.push({ path: `drivers/d${i % 400}/sub${i % 7}/f${i}.c`, language: "c" });
    paths.push({ path: "tools/pkg/package.json", language: "json" });
    // What it costs is measured by the benchmarks, never asserted here: tests assert no wall time.
    const g = buildGraphFrom([{ path: "tools/pkg/package.json", content: JSON.stringify({ name: "pkg" }) }], paths);
    assert.equal(g.modules.length, 1);
    assert.equal(g.modules[0]!.path, "tools/pkg");
  });
});
