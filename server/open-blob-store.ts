// The blob store the configuration asks for: a folder in DATA_DIR (the embedded default), or
// S3-compatible object storage (BLOB_STORE=s3://bucket/prefix) shared by servers and workers.
import path from 'node:path';
import { HeadBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { FolderBlobStore, type SweptBlobStore } from './blob-store';
import { ConfigError, type Config, type ObjectStorageSettings } from './config';
import { S3BlobStore } from './s3-blob-store';

export async function openBlobStore(config: Pick<Config, 'dataDir' | 'objectStorage'>): Promise<SweptBlobStore> {
  const settings = config.objectStorage;
  if (settings === undefined) return new FolderBlobStore({ root: path.join(config.dataDir, 'blobs') });
  const client = new S3Client(s3ClientSettings(settings));
  // A wrong bucket, endpoint or key shows at start, not at the first upload.
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
  } catch (error) {
    client.destroy();
    const reason = (error as Error).name === 'NotFound' ? 'no such bucket' : (error as Error).message || (error as Error).name;
    throw new ConfigError([`BLOB_STORE: bucket "${settings.bucket}" at ${settings.endpoint ?? 'AWS S3'} cannot be used (${reason})`]);
  }
  return new S3BlobStore({ client, bucket: settings.bucket, prefix: settings.prefix });
}

/**
 * The S3 client settings of every blob store. A ranged read cannot be checked against the whole
 * object's checksum, which some stores send with it anyway: reads are checked when asked only.
 */
export function blobStoreClientSettings(): S3ClientConfig {
  return { responseChecksumValidation: 'WHEN_REQUIRED' };
}

/** The S3 client settings for the configured object storage (credentials: the SDK's usual sources). */
export function s3ClientSettings(settings: ObjectStorageSettings): S3ClientConfig {
  return {
    ...blobStoreClientSettings(),
    region: settings.region,
    // Other S3-compatible services (MinIO, Garage, Ceph) serve buckets by path, not by host name.
    ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint, forcePathStyle: true }),
  };
}

/** Where stored files are, for the start-up lines. */
export function blobStoreDescription(config: Pick<Config, 'dataDir' | 'objectStorage'>): string {
  const settings = config.objectStorage;
  if (settings === undefined) return `folder ${path.join(config.dataDir, 'blobs')}`;
  return `s3://${settings.bucket}/${settings.prefix}${settings.endpoint === undefined ? '' : ` at ${settings.endpoint}`}`;
}
