/**
 * Maven: every pom.xml is a module named by its artifactId. `<modules>` (also inside profiles) builds the
 * reactor tree; commands run from the top aggregator with `-pl <folder>` and the root's `mvnw` when present.
 */
import {
  asList,
  cdPrefix,
  dirName,
  emptyCollected,
  folderName,
  isRecord,
  joinPath,
  lineOf,
  newModule,
  relativePath,
  shellQuote,
  wrapperFor,
  type Collected,
  type Context,
} from "./common.js";
import { parseXml, xmlText } from "./xml.js";
import type { ManifestFile } from "../../../core/knowledge.js";

const POM_ARRAYS: ReadonlySet<string> = new Set(["module", "dependency", "plugin", "profile"]);
/** Build plugins that make a module a runnable application. */
const APP_PLUGINS: ReadonlySet<string> = new Set([
  "spring-boot-maven-plugin",
  "quarkus-maven-plugin",
  "micronaut-maven-plugin",
  "jib-maven-plugin",
]);
/** Plugins whose `<mainClass>` makes the packaged artifact runnable (exec-maven-plugin's often runs a tool). */
const MANIFEST_PLUGINS: ReadonlySet<string> = new Set([
  "maven-jar-plugin",
  "maven-shade-plugin",
  "maven-assembly-plugin",
  "appassembler-maven-plugin",
]);
const MAIN_CLASS_PROPERTIES = ["start-class", "mainClass", "main.class", "exec.mainClass"];

interface Pom {
  file: ManifestFile;
  dir: string;
  groupId: string | null;
  artifactId: string;
  modules: string[];
  deps: { groupId: string | null; artifactId: string }[];
  app: boolean;
}

export function collectMaven(ctx: Context): Collected {
  const out = emptyCollected();
  const poms: Pom[] = [];
  for (const file of ctx.named("pom.xml")) {
    const pom = readPom(ctx, file);
    if (pom) poms.push(pom);
  }
  if (poms.length === 0) return out;

  const byDir = new Map(poms.map((p) => [p.dir, p]));
  // Reactor tree: child folder -> the aggregator that lists it (the first one, in path order).
  const reactorParent = new Map<string, string>();
  for (const pom of poms) {
    for (const entry of pom.modules) {
      const isFile = entry.toLowerCase().endsWith(".xml");
      const pomPath = joinPath(pom.dir, isFile ? entry : `${entry}/pom.xml`);
      const line = lineOf(pom.file.content, `>${entry}<`) ?? lineOf(pom.file.content, entry);
      if (pomPath === null) {
        ctx.warn(pom.file.path, line, `<module>${entry}</module> points outside the repository`);
        continue;
      }
      if (!ctx.hasFile(pomPath)) {
        ctx.warn(pom.file.path, line, `<module>${entry}</module> has no ${pomPath}`);
        continue;
      }
      const childDir = dirName(pomPath);
      if (childDir !== pom.dir && byDir.has(childDir) && !reactorParent.has(childDir)) reactorParent.set(childDir, pom.dir);
    }
  }
  const topOf = (dir: string): string => {
    const seen = new Set<string>([dir]);
    let d = dir;
    for (let up = reactorParent.get(d); up !== undefined && !seen.has(up); up = reactorParent.get(d)) {
      seen.add(up);
      d = up;
    }
    return d;
  };

  const byKey = new Map<string, Pom>();
  const byArtifact = new Map<string, Pom[]>();
  for (const pom of poms) {
    if (pom.groupId !== null && !byKey.has(`${pom.groupId}:${pom.artifactId}`)) byKey.set(`${pom.groupId}:${pom.artifactId}`, pom);
    const list = byArtifact.get(pom.artifactId);
    if (list) list.push(pom);
    else byArtifact.set(pom.artifactId, [pom]);
  }

  for (const pom of poms) {
    const dependsOn: string[] = [];
    for (const dep of pom.deps) {
      let hit: Pom | undefined;
      if (dep.groupId !== null) hit = byKey.get(`${dep.groupId}:${dep.artifactId}`);
      else {
        const list = byArtifact.get(dep.artifactId);
        if (list && list.length === 1) hit = list[0];
      }
      if (hit && hit !== pom) dependsOn.push(hit.artifactId);
    }
    const top = topOf(pom.dir);
    const mvn = wrapperFor(ctx, top, "mvnw") ?? "mvn";
    const select = pom.dir === top ? "" : `-pl ${shellQuote(relativePath(top, pom.dir))} `;
    const prefix = `${cdPrefix(top)}${mvn} ${select}`;
    out.drafts.push({
      module: newModule({
        name: pom.artifactId,
        path: pom.dir,
        buildSystem: "maven",
        manifest: pom.file.path,
        type: pom.app ? "app" : "library",
        dependsOn,
        buildCommand: `${prefix}package`,
        testCommand: `${prefix}test`,
        testRunner: "maven",
        commandSource: pom.dir === top ? "pom.xml" : "pom.xml <modules>",
      }),
    });
  }
  return out;
}

function readPom(ctx: Context, file: ManifestFile): Pom | null {
  const doc = parseXml(ctx, file, POM_ARRAYS);
  if (!doc) return null;
  const project = doc["project"];
  if (!isRecord(project)) {
    ctx.warn(file.path, null, "no <project> element");
    return null;
  }
  const dir = dirName(file.path);
  const parent = isRecord(project["parent"]) ? project["parent"] : {};
  const properties = isRecord(project["properties"]) ? project["properties"] : {};
  const groupId = xmlText(project["groupId"]) ?? xmlText(parent["groupId"]);
  let artifactId = xmlText(project["artifactId"]);
  if (!artifactId) {
    ctx.warn(file.path, null, "no <artifactId>; using the folder name");
    artifactId = folderName(dir);
  }

  const resolveGroup = (raw: string | null): string | null => {
    if (raw === null) return null;
    if (!raw.includes("${")) return raw;
    const inner = raw.startsWith("${") && raw.endsWith("}") ? raw.slice(2, -1) : null;
    if (inner === null) return null;
    if (["project.groupId", "pom.groupId", "groupId", "project.parent.groupId", "parent.groupId"].includes(inner)) return groupId;
    const prop = xmlText(properties[inner]);
    return prop !== null && !prop.includes("${") ? prop : null;
  };

  const modules: string[] = [];
  const addModules = (holder: unknown): void => {
    if (!isRecord(holder) || !isRecord(holder["modules"])) return;
    for (const m of asList(holder["modules"]["module"])) {
      const t = xmlText(m);
      if (t) modules.push(t);
    }
  };
  addModules(project);
  const profiles = isRecord(project["profiles"]) ? asList(project["profiles"]["profile"]) : [];
  for (const profile of profiles) addModules(profile);

  const deps: Pom["deps"] = [];
  const depHolder = project["dependencies"];
  if (isRecord(depHolder)) {
    for (const d of asList(depHolder["dependency"])) {
      if (!isRecord(d)) continue;
      const a = xmlText(d["artifactId"]);
      if (!a) continue;
      deps.push({ groupId: resolveGroup(xmlText(d["groupId"])), artifactId: a });
    }
  }

  let app = (xmlText(project["packaging"]) ?? "jar").toLowerCase() === "war";
  const build = isRecord(project["build"]) ? project["build"] : null;
  if (!app && build && isRecord(build["plugins"])) {
    for (const p of asList(build["plugins"]["plugin"])) {
      if (isRecord(p) && APP_PLUGINS.has(xmlText(p["artifactId"]) ?? "")) app = true;
    }
  }
  if (!app && build && isRecord(build["plugins"])) {
    for (const p of asList(build["plugins"]["plugin"])) {
      if (isRecord(p) && MANIFEST_PLUGINS.has(xmlText(p["artifactId"]) ?? "") && hasKey(p, "mainClass", 0)) app = true;
    }
  }
  if (!app && MAIN_CLASS_PROPERTIES.some((k) => xmlText(properties[k]))) app = true;

  return { file, dir, groupId: resolveGroup(groupId), artifactId, modules, deps, app };
}

/** Is `key` present anywhere in a parsed XML subtree (bounded depth)? */
function hasKey(node: unknown, key: string, depth: number): boolean {
  if (depth > 12 || typeof node !== "object" || node === null) return false;
  if (Array.isArray(node)) return node.some((n) => hasKey(n, key, depth + 1));
  for (const [k, v] of Object.entries(node)) {
    if (k === key && xmlText(v)) return true;
    if (hasKey(v, key, depth + 1)) return true;
  }
  return false;
}
