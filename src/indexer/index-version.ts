import { createHash } from "node:crypto";
import { EXTRACTOR_VERSION } from "../core/index-format.js";

/** What a row contributes to its index's version. */
export interface VersionRow {
  path: string;
  contentHash: string;
  skipReason: string | null;
}

const MODULUS = 1n << 64n;
/** `s`: the digest is a sum over rows, so an update can move it by the rows it changed alone. */
const VERSION_FORMAT = new RegExp(`^idx-v${EXTRACTOR_VERSION}s-([0-9a-f]{16})$`);

function digest64(text: string): bigint {
  return createHash("sha256").update(text).digest().readBigUInt64BE(0);
}

function rowDigest(r: VersionRow): bigint {
  return digest64(`${r.path}\0${r.contentHash}\0${r.skipReason ?? ""}\n`);
}

function baseDigest(scip: string | undefined): bigint {
  return digest64(`extractor:${EXTRACTOR_VERSION}\n${scip ? `scip:${scip}\n` : ""}`);
}

/**
 * Same rows for the same tree: an index's version is a digest of what was indexed and how. It is the sum (mod
 * 2^64) of one digest per row plus one of the extractor and SCIP layer, so it does not depend on row order and an
 * in-place update computes it from the previous version and the rows that left and came in, without reading the
 * other 78k rows of a kernel index. A full build and an update of the same tree get the same version.
 */
export class IndexVersion {
  private constructor(private sum: bigint) {}

  static empty(): IndexVersion {
    return new IndexVersion(0n);
  }

  static ofRows(rows: Iterable<VersionRow>): IndexVersion {
    const v = IndexVersion.empty();
    for (const r of rows) v.add(r);
    return v;
  }

  /** The version a build wrote, taken apart again; null for another format (an older build: read its rows). */
  static parse(version: string, scip: string | undefined): IndexVersion | null {
    const m = VERSION_FORMAT.exec(version);
    if (!m) return null;
    return new IndexVersion((BigInt(`0x${m[1]}`) - baseDigest(scip) + MODULUS) % MODULUS);
  }

  add(r: VersionRow): void {
    this.sum = (this.sum + rowDigest(r)) % MODULUS;
  }

  remove(r: VersionRow): void {
    this.sum = (this.sum - rowDigest(r) + MODULUS) % MODULUS;
  }

  format(scip: string | undefined): string {
    const total = (this.sum + baseDigest(scip)) % MODULUS;
    return `idx-v${EXTRACTOR_VERSION}s-${total.toString(16).padStart(16, "0")}`;
  }
}
