/**
 * .NET: every project file (*.csproj, *.fsproj, *.vbproj) is a module named by its file name. Project references
 * are the dependencies; test SDK packages make a test project. Solutions (*.sln line format, *.slnx XML) are
 * checked for missing projects and give the root test command.
 */
import {
  asList,
  asString,
  baseName,
  dirName,
  emptyCollected,
  isRecord,
  joinPath,
  newModule,
  shellQuote,
  stemOf,
  type Collected,
  type Context,
} from "./common.js";
import { parseXml, xmlText } from "./xml.js";
import type { ManifestFile } from "../../../core/knowledge.js";

export const PROJECT_EXTENSIONS = [".csproj", ".fsproj", ".vbproj"];
const PROJECT_ARRAYS: ReadonlySet<string> = new Set(["ItemGroup", "PropertyGroup", "ProjectReference", "PackageReference", "Import", "Sdk"]);
const SLNX_ARRAYS: ReadonlySet<string> = new Set(["Project", "Folder"]);
const TEST_PACKAGES: ReadonlySet<string> = new Set([
  "microsoft.net.test.sdk",
  "xunit",
  "xunit.v3",
  "xunit.core",
  "nunit",
  "mstest",
  "mstest.testframework",
  "mstest.testadapter",
  "tunit",
]);
const APP_SDKS: ReadonlySet<string> = new Set(["microsoft.net.sdk.web", "microsoft.net.sdk.worker", "microsoft.net.sdk.blazorwebassembly"]);

interface Proj {
  file: ManifestFile;
  dir: string;
  name: string;
  refs: { path: string; raw: string }[];
  test: boolean;
  app: boolean;
}

export function collectDotnet(ctx: Context): Collected {
  const out = emptyCollected();
  const projects: Proj[] = [];
  for (const file of ctx.withExtension(...PROJECT_EXTENSIONS)) {
    const p = readProject(ctx, file);
    if (p) projects.push(p);
  }
  const byPath = new Map(projects.map((p) => [p.file.path, p]));

  for (const p of projects) {
    const dependsOn: string[] = [];
    for (const ref of p.refs) {
      const hit = byPath.get(ref.path);
      if (hit && hit !== p) dependsOn.push(hit.name);
      else if (!hit && !ctx.hasFile(ref.path)) ctx.warn(p.file.path, null, `ProjectReference ${ref.raw} not found`);
    }
    const manifest = shellQuote(p.file.path);
    out.drafts.push({
      module: newModule({
        name: p.name,
        path: p.dir,
        buildSystem: "dotnet",
        manifest: p.file.path,
        type: p.test ? "test" : p.app ? "app" : "library",
        dependsOn,
        buildCommand: `dotnet build ${manifest}`,
        testCommand: p.test ? `dotnet test ${manifest}` : null,
        testRunner: p.test ? "dotnet" : null,
        commandSource: p.test ? `${baseName(p.file.path)} test SDK` : null,
      }),
    });
  }

  // Solutions: every listed project must exist; a solution at the root tests everything.
  const rootSolutions: string[] = [];
  for (const sln of ctx.withExtension(".sln")) {
    for (const entry of solutionProjects(sln.content)) checkListed(ctx, sln, entry.path, entry.line);
    if (dirName(sln.path) === "") rootSolutions.push(sln.path);
  }
  for (const slnx of ctx.withExtension(".slnx")) {
    const doc = parseXml(ctx, slnx, SLNX_ARRAYS);
    if (!doc) continue;
    if (!isRecord(doc["Solution"])) {
      ctx.warn(slnx.path, null, "no <Solution> element");
      continue;
    }
    for (const path of slnxProjects(doc["Solution"], 0)) checkListed(ctx, slnx, path, null);
    if (dirName(slnx.path) === "") rootSolutions.push(slnx.path);
  }
  rootSolutions.sort();
  if (rootSolutions.length > 0) out.roots.push({ buildSystem: "dotnet", command: `dotnet test ${shellQuote(rootSolutions[0]!)}` });
  return out;
}

function checkListed(ctx: Context, sln: ManifestFile, raw: string, line: number | null): void {
  const lower = raw.toLowerCase();
  if (!PROJECT_EXTENSIONS.some((e) => lower.endsWith(e))) return; // solution folders, other project kinds
  const path = joinPath(dirName(sln.path), raw);
  if (path === null || !ctx.hasFile(path)) ctx.warn(sln.path, line, `project ${raw} listed in the solution does not exist`);
}

function readProject(ctx: Context, file: ManifestFile): Proj | null {
  const doc = parseXml(ctx, file, PROJECT_ARRAYS);
  if (!doc) return null;
  const project = doc["Project"];
  if (!isRecord(project)) {
    ctx.warn(file.path, null, "no <Project> element");
    return null;
  }
  const dir = dirName(file.path);
  const sdks: string[] = [];
  const sdkAttr = asString(project["@_Sdk"]);
  if (sdkAttr) sdks.push(...sdkAttr.split(";").map((s) => s.split("/")[0]!.trim().toLowerCase()));
  for (const s of asList(project["Sdk"])) if (isRecord(s) && asString(s["@_Name"])) sdks.push(asString(s["@_Name"])!.toLowerCase());
  for (const s of asList(project["Import"])) if (isRecord(s) && asString(s["@_Sdk"])) sdks.push(asString(s["@_Sdk"])!.toLowerCase());

  let outputType: string | null = null;
  let isTestProject = false;
  for (const group of asList(project["PropertyGroup"])) {
    if (!isRecord(group)) continue;
    outputType = xmlText(group["OutputType"]) ?? outputType;
    if ((xmlText(group["IsTestProject"]) ?? "").toLowerCase() === "true") isTestProject = true;
  }
  const refs: Proj["refs"] = [];
  let testPackage = false;
  for (const group of asList(project["ItemGroup"])) {
    if (!isRecord(group)) continue;
    for (const r of asList(group["ProjectReference"])) {
      const raw = isRecord(r) ? asString(r["@_Include"]) : null;
      if (!raw) continue;
      const path = joinPath(dir, raw);
      if (path !== null) refs.push({ path, raw });
    }
    for (const r of asList(group["PackageReference"])) {
      const name = isRecord(r) ? asString(r["@_Include"]) : null;
      const lower = name?.toLowerCase() ?? "";
      if (TEST_PACKAGES.has(lower) || lower.startsWith("xunit.v3") || lower.startsWith("mstest.")) testPackage = true;
    }
  }
  const test = isTestProject || testPackage || sdks.includes("mstest.sdk");
  const exe = outputType !== null && ["exe", "winexe"].includes(outputType.toLowerCase());
  const app = exe || sdks.some((s) => APP_SDKS.has(s));
  return { file, dir, name: stemOf(file.path), refs, test, app };
}

/** Project entries of a .sln: `Project("{type}") = "Name", "path\X.csproj", "{guid}"`. */
export function solutionProjects(text: string): { name: string; path: string; line: number }[] {
  const out: { name: string; path: string; line: number }[] = [];
  const lines = text.split("\n");
  for (let n = 0; n < lines.length; n++) {
    const t = lines[n]!.trim();
    if (!t.startsWith("Project(")) continue;
    const eq = t.indexOf("=");
    if (eq < 0) continue;
    const strings = quotedStrings(t.slice(eq + 1));
    if (strings.length >= 2) out.push({ name: strings[0]!, path: strings[1]!, line: n + 1 });
  }
  return out;
}

function quotedStrings(s: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] !== '"') continue;
    const end = s.indexOf('"', i + 1);
    if (end < 0) break;
    out.push(s.slice(i + 1, end));
    i = end;
  }
  return out;
}

function slnxProjects(node: unknown, depth: number): string[] {
  if (!isRecord(node) || depth > 10) return [];
  const out: string[] = [];
  for (const p of asList(node["Project"])) if (isRecord(p) && asString(p["@_Path"])) out.push(asString(p["@_Path"])!);
  for (const f of asList(node["Folder"])) out.push(...slnxProjects(f, depth + 1));
  return out;
}
