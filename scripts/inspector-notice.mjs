// After `npm run setup:inspector`: one line saying what was installed and why npm's engine check is not the word.
import { readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../tools/inspector/node_modules/@modelcontextprotocol/inspector/package.json", import.meta.url), "utf8"));
process.stderr.write(
  `MCP Inspector ${pkg.version} installed in tools/inspector for the tests; it declares node ${pkg.engines?.node ?? "(any)"}, ` +
    `its CLI runs on this node ${process.version} (test/inspector.test.ts drives it)\n`,
);
