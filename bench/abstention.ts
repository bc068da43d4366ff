/**
 * `node --import tsx bench/abstention.ts <repo>...`: how often `abstain: true` answers noLocalEvidence, for
 * questions about the repository (its own recent commit messages, as `repoctx eval` picks them) and for questions
 * about nothing in it (a fixed off-topic list). Each repository is indexed at HEAD into a temporary store.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultReadPolicy } from "../src/config/schema.js";
import { selectCommits } from "../src/eval/commits.js";
import { buildIndex } from "../src/indexer/pipeline.js";
import { rankedSearch } from "../src/query/hybrid/search.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";

const OFF_TOPIC = [
  "how long should I bake sourdough bread at high altitude",
  "configure a Kubernetes ingress with cert-manager and Let's Encrypt",
  "best practices for watering tomato plants in summer",
  "train a convolutional neural network on CIFAR-10 with PyTorch",
  "the rules of cricket for a test match declaration",
  "set up DKIM and SPF records for a mail domain",
  "render a 3D scene with ray tracing and global illumination",
  "negotiate a salary offer for a senior engineering role",
  "transpose a song from C major to E flat major",
  "calculate the orbital period of a satellite around Mars",
];
const ON_TOPIC = 30;

for (const repo of process.argv.slice(2)) {
  const dir = mkdtempSync(join(tmpdir(), "repoctx-abstain-"));
  const store = SqliteStore.open(join(dir, "index.db"));
  try {
    await buildIndex({ root: repo, store, maxFileBytes: 1 << 20 });
    const index = (await store.getReadyIndex())!;
    const ctx = { store, index, policy: defaultReadPolicy() };
    const on = (await selectCommits(repo, { count: ON_TOPIC })).selected.map((c) => c.query);
    const abstained = async (qs: string[]) => {
      let n = 0;
      for (const query of qs) if ((await rankedSearch(ctx, { query, strategy: "hybrid", abstain: true })).abstention.noLocalEvidence) n++;
      return n;
    };
    const onN = await abstained(on);
    const offN = await abstained(OFF_TOPIC);
    process.stdout.write(`${repo}: abstained on ${onN}/${on.length} questions about the repository (wrong), ${offN}/${OFF_TOPIC.length} off-topic questions (right)\n`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
