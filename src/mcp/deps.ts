import type { OperatorConfig, ReadPolicy } from "../config/schema.js";
import type { Logger } from "../log.js";
import type { WorkingTreeOverlay } from "../indexer/overlay.js";
import type { IndexRow, Store } from "../store/store.js";
import type { AuditSink } from "./audit.js";

/** Everything a server needs, injected: no module-level state. */
export interface ServerDeps {
  store: Store;
  /** Real path of the served repository's work tree. */
  root: string;
  /** Which repository in the store to serve; omitted when the store holds exactly one. */
  repoId?: string;
  policy: ReadPolicy;
  /** The operator's instruction layers and task sources; absent means the defaults (no extra layers, no task sources). */
  operator?: OperatorConfig;
  logger: Logger;
  /** The work tree's current HEAD commit (null outside git); used for `stale_index` warnings. */
  readHead: () => Promise<string | null>;
  /** Where each tool call is recorded; absent means no audit (tests that do not look at it). */
  audit?: AuditSink;
  /**
   * The working tree over the ready index (edited, new and deleted files), served fresh from disk; absent means
   * answers come from the index alone, with `file_changed_since_index` warnings for files that changed.
   */
  overlay?: (index: IndexRow) => Promise<WorkingTreeOverlay>;
  /** Wrap documentation and flagged text in the safe wrapper (default true; the CLI prints raw text). */
  wrapText?: boolean;
  /** Injectable clock for audit timestamps and latency. */
  now?: () => Date;
}
