/**
 * Reads a SCIP index (the protobuf `scip.Index` that scip-typescript, scip-python, scip-java, scip-go and others
 * write) into what the indexer uses: per document its path and occurrences. Only the fields read here are decoded;
 * everything else (symbol information, diagnostics, documentation) is skipped by wire type, so a newer SCIP schema
 * with more fields still reads.
 */

export interface ScipOccurrence {
  /** 0-based [startLine, startChar, endChar] or [startLine, startChar, endLine, endChar]. */
  range: number[];
  symbol: string;
  roles: number;
}

export interface ScipDocument {
  relativePath: string;
  language: string;
  occurrences: ScipOccurrence[];
  /** 0 unspecified, 1 UTF-8, 2 UTF-16, 3 UTF-32 code units from the line start. */
  positionEncoding: number;
}

export interface ScipIndex {
  toolName: string;
  toolVersion: string;
  /** A URI, usually `file:///…` of the folder the indexer ran in. */
  projectRoot: string;
  documents: ScipDocument[];
}

/** SymbolRole bits (scip.proto). */
export const SCIP_ROLE = { definition: 1, import: 2, writeAccess: 4, readAccess: 8, generated: 16, test: 32, forwardDefinition: 64 } as const;

export class ScipDecodeError extends Error {}

/** A cursor over one protobuf message's bytes. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  done(): boolean {
    return this.pos >= this.end;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new ScipDecodeError("truncated varint");
      const b = this.buf[this.pos++]!;
      // Past 2^53 precision is lost; SCIP's numbers (lines, columns, roles, lengths) are far below.
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new ScipDecodeError("varint too long");
    }
  }

  /** A varint read as a signed 32-bit int (negative int32 values are sign-extended to 64 bits on the wire). */
  int32(): number {
    return this.varint() | 0;
  }

  /** The bounds of a length-delimited field's bytes, advancing past them. */
  bytes(): [number, number] {
    const len = this.varint();
    const start = this.pos;
    if (start + len > this.end) throw new ScipDecodeError("length past the end of the message");
    this.pos = start + len;
    return [start, this.pos];
  }

  string(): string {
    const [s, e] = this.bytes();
    return TEXT.decode(this.buf.subarray(s, e));
  }

  sub(): Reader {
    const [s, e] = this.bytes();
    return new Reader(this.buf, s, e);
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.bytes();
    else if (wireType === 5) this.pos += 4;
    else throw new ScipDecodeError(`unsupported wire type ${wireType}`);
    if (this.pos > this.end) throw new ScipDecodeError("field past the end of the message");
  }

  /** Calls `field` for each (number, wire type) until the message ends. */
  fields(field: (num: number, wire: number) => boolean): void {
    while (!this.done()) {
      const tag = this.varint();
      const num = Math.floor(tag / 8);
      const wire = tag & 7;
      if (!field(num, wire)) this.skip(wire);
    }
  }

  /** A repeated int32: packed (wire type 2) or one value per field (wire type 0). */
  int32s(wire: number, into: number[]): void {
    if (wire === 0) {
      into.push(this.int32());
      return;
    }
    const r = this.sub();
    while (!r.done()) into.push(r.int32());
  }
}

const TEXT = new TextDecoder("utf-8", { fatal: false });

function decodeOccurrence(r: Reader): ScipOccurrence {
  const occ: ScipOccurrence = { range: [], symbol: "", roles: 0 };
  r.fields((num, wire) => {
    if (num === 1 && (wire === 0 || wire === 2)) r.int32s(wire, occ.range);
    else if (num === 2 && wire === 2) occ.symbol = r.string();
    else if (num === 3 && wire === 0) occ.roles = r.int32();
    else return false;
    return true;
  });
  return occ;
}

function decodeDocument(r: Reader): ScipDocument {
  const doc: ScipDocument = { relativePath: "", language: "", occurrences: [], positionEncoding: 0 };
  r.fields((num, wire) => {
    if (num === 1 && wire === 2) doc.relativePath = r.string();
    else if (num === 2 && wire === 2) doc.occurrences.push(decodeOccurrence(r.sub()));
    else if (num === 4 && wire === 2) doc.language = r.string();
    else if (num === 6 && wire === 0) doc.positionEncoding = r.varint();
    else return false;
    return true;
  });
  return doc;
}

function decodeMetadata(r: Reader, into: ScipIndex): void {
  r.fields((num, wire) => {
    if (num === 2 && wire === 2) {
      const tool = r.sub();
      tool.fields((n, w) => {
        if (n === 1 && w === 2) into.toolName = tool.string();
        else if (n === 2 && w === 2) into.toolVersion = tool.string();
        else return false;
        return true;
      });
    } else if (num === 3 && wire === 2) into.projectRoot = r.string();
    else return false;
    return true;
  });
}

/** Decodes a whole SCIP index; throws ScipDecodeError on bytes that are not one. */
export function decodeScip(buf: Uint8Array): ScipIndex {
  const index: ScipIndex = { toolName: "", toolVersion: "", projectRoot: "", documents: [] };
  const r = new Reader(buf);
  r.fields((num, wire) => {
    if (num === 1 && wire === 2) decodeMetadata(r.sub(), index);
    else if (num === 2 && wire === 2) index.documents.push(decodeDocument(r.sub()));
    else if (wire > 5 || (num === 0 && wire === 0)) throw new ScipDecodeError("not a SCIP index");
    else return false;
    return true;
  });
  if (index.documents.length === 0 && index.toolName === "") throw new ScipDecodeError("not a SCIP index (no metadata and no documents)");
  return index;
}
