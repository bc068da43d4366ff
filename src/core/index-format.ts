/** Bumped whenever extraction changes what rows a file yields, so old and new rows are never mixed. */
export const EXTRACTOR_VERSION = "7";
