// Spec 2.10 (artifact), 4.6 and 8; contract 12: files that workflow runs and jobs produce, kept for a
// while and handed out through signed, expiring links.

/** A stored file: the record; its bytes live beside it (docs/assets.md: per engine). */
export interface Asset {
  /** A UUID v4, like every resource id (contract 3). */
  id: string;
  organization_id: string;
  run_id: string | null;
  job_id: string | null;
  node_key: string | null;
  filename: string;
  content_type: string;
  /** Bytes. */
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  created_at: string;
}

/** Who an asset belongs to: an organization, and the run (and node) or job that made it. */
export interface AssetOwner {
  organization_id: string;
  run_id?: string;
  job_id?: string;
  node_key?: string;
}

/** A file to store as an asset. */
export interface AssetFile {
  filename: string;
  content_type: string;
  bytes: Buffer;
}

/** Spec 2.10: an asset as a run's output shows it, with a signed download link. */
export interface Artifact {
  asset_id: string;
  filename: string;
  content_type: string;
  /** The same as content_type, under the name contract 13 gives it. */
  media_type: string;
  /** Size in bytes. */
  bytes: number;
  download_url: string;
  download_url_expires_at: string;
}

/** One slice of an asset's bytes on PostgreSQL (`<asset id>:<n>`, n from 0), base64. */
export interface AssetChunk {
  id: string;
  asset_id: string;
  n: number;
  data: string;
}

/** What a signed download serves: the record and its bytes, in order (a stream read as it is sent). */
export interface AssetDownload {
  asset: Asset;
  body: AsyncIterable<Buffer>;
  /** Seconds until the link expires (its cache lifetime). */
  remainingSeconds: number;
}

/**
 * Spec 8: a signed link lives an hour unless `expires_in` says otherwise, and at most 24 hours. Here,
 * not in schemas.ts, so that the CLI can check its flag without loading zod.
 */
export const DEFAULT_LINK_SECONDS = 3600;
export const MAX_LINK_SECONDS = 86_400;
