/**
 * A node:test reporter that counts and names everything skipped, suites included. node's own summary counts
 * skipped tests only, so a suite skipped whole (the PostgreSQL half without a server) read as "skipped 0".
 * Runs beside the TAP reporter (package.json "test"); its lines are TAP comments.
 */
export default async function* skips(source) {
  const skipped = [];
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { skip, name, file } = event.data;
    if (skip === undefined || skip === false) continue;
    skipped.push({ name, reason: typeof skip === "string" ? skip : "", file: file ?? "" });
  }
  yield `# skipped, suites included: ${skipped.length}\n`;
  for (const s of skipped) yield `#   skipped: ${s.name}${s.reason ? ` (${s.reason})` : ""}${s.file ? ` [${s.file.replace(/^.*\/test\//, "test/")}]` : ""}\n`;
}
