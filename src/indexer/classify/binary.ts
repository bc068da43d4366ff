/**
 * File classification for the indexer: binary files, by content (NUL byte, magic number) and by name.
 *
 * Pure and synchronous: it runs once per file of very large repositories (80k+ files), so every function
 * is a handful of byte comparisons and set lookups.
 */
import { baseNameOf } from "./paths.js";

/** How many leading bytes are inspected for a NUL byte (same window as git's buffer_is_binary). */
export const BINARY_SNIFF_BYTES = 8000;

/**
 * Magic numbers of binary formats that may not contain a NUL byte early on. Only signatures with
 * non-ASCII bytes or long, distinctive ASCII prefixes are listed, so that a text file cannot match by accident.
 */
const BINARY_SIGNATURES: readonly (readonly number[])[] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38, 0x37, 0x61], // GIF87a
  [0x47, 0x49, 0x46, 0x38, 0x39, 0x61], // GIF89a
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x50, 0x4b, 0x03, 0x04], // ZIP (jar, docx, apk, ...)
  [0x50, 0x4b, 0x05, 0x06], // empty ZIP
  [0x1f, 0x8b], // gzip
  [0x42, 0x5a, 0x68], // bzip2 "BZh" (followed by a non-text block header)
  [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], // xz
  [0x28, 0xb5, 0x2f, 0xfd], // zstd
  [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], // 7z
  [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], // RAR
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0xfe, 0xed, 0xfa, 0xce], // Mach-O 32
  [0xfe, 0xed, 0xfa, 0xcf], // Mach-O 64
  [0xce, 0xfa, 0xed, 0xfe], // Mach-O 32 (LE)
  [0xcf, 0xfa, 0xed, 0xfe], // Mach-O 64 (LE)
  [0xca, 0xfe, 0xba, 0xbe], // Java class / Mach-O fat binary
  [0x00, 0x61, 0x73, 0x6d], // WebAssembly
  [0x77, 0x4f, 0x46, 0x46], // WOFF
  [0x77, 0x4f, 0x46, 0x32], // WOFF2
  [0x4f, 0x67, 0x67, 0x53, 0x00], // Ogg
  [0x49, 0x44, 0x33, 0x03], // MP3 with ID3v2.3
  [0x49, 0x44, 0x33, 0x04], // MP3 with ID3v2.4
  [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], // OLE2 (legacy .doc/.xls/.msi)
  [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66, 0x6f, 0x72, 0x6d, 0x61, 0x74, 0x20, 0x33, 0x00], // SQLite
];

function startsWithBytes(buf: Uint8Array, sig: readonly number[]): boolean {
  if (buf.length < sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (buf[i] !== sig[i]) return false;
  return true;
}

/** True when the buffer looks binary: a NUL byte in the first 8000 bytes, or a known binary signature. */
export function isBinaryContent(buf: Uint8Array): boolean {
  const n = Math.min(buf.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (buf[i] === 0) return true;
  for (const sig of BINARY_SIGNATURES) if (startsWithBytes(buf, sig)) return true;
  return false;
}

/**
 * Extensions that are always binary (lowercase, no dot). Deliberately excludes extensions that Linguist
 * also assigns to text languages (.obj = Wavefront OBJ, .pb = PureBasic, .mo = Modelica, .pkl = Pkl, .dat, .cer).
 */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set([
  // images
  "png", "jpg", "jpeg", "gif", "bmp", "ico", "icns", "tif", "tiff", "webp", "avif", "heic", "heif", "psd", "xcf", "jxl",
  // documents
  "pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "odt", "ods", "odp", "epub",
  // archives and packages
  "zip", "gz", "tgz", "bz2", "tbz2", "xz", "txz", "7z", "rar", "tar", "zst", "lz4", "lzma", "br", "cab",
  "jar", "war", "ear", "aar", "apk", "aab", "ipa", "deb", "rpm", "dmg", "iso", "msi", "nupkg", "whl", "egg", "gem", "crx", "xpi", "vsix",
  // compiled code, objects and libraries
  "class", "dex", "pyc", "pyo", "pyd", "o", "a", "lib", "so", "dylib", "dll", "exe", "bin", "wasm", "node", "pdb", "ilk", "beam", "rlib", "elc", "lockb",
  // fonts
  "woff", "woff2", "ttf", "otf", "eot", "ttc",
  // audio and video
  "mp3", "mp4", "m4a", "m4v", "wav", "ogg", "oga", "ogv", "opus", "flac", "aac", "wma", "mov", "avi", "mkv", "webm", "wmv", "flv", "mpg", "mpeg", "3gp",
  // data stores, models and serialized blobs
  "sqlite", "sqlite3", "db", "mdb", "accdb", "parquet", "avro", "orc", "feather", "arrow", "npy", "npz", "h5", "hdf5", "onnx", "pt", "pth", "ckpt", "safetensors", "tflite", "keras",
  // keystores (also flagged by secretFileNameReason)
  "jks", "keystore", "p12", "pfx",
  // design and 3D assets
  "sketch", "fig", "blend", "fbx", "glb", "3ds", "swf", "fla",
]);

/** Basenames of binary files without a telling extension. */
const BINARY_FILENAMES: ReadonlySet<string> = new Set([".DS_Store"]);

/** True when the path's extension (or name) is always binary, e.g. "logo.png", "lib/x.so", "a.tar.gz". */
export function isBinaryPath(path: string): boolean {
  const base = baseNameOf(path);
  if (BINARY_FILENAMES.has(base)) return true;
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return false;
  return BINARY_EXTENSIONS.has(base.slice(dot + 1).toLowerCase());
}
