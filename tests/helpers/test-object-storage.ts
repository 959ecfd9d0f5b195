// Real S3-compatible servers on loopback for tests: s3rver (npm, always there) and moto_server
// (PyPI, where installed), which also lists and aborts multipart uploads, as AWS S3 and MinIO do.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { blobStoreClientSettings } from '../../server/open-blob-store';

export const TEST_BUCKET = 'portal-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface TestObjectStorage {
  endpoint: string;
  /** Lists and aborts multipart uploads (s3rver does not). */
  listsUploads: boolean;
  /** The environment a server or worker process needs to use this storage (BLOB_STORE aside). */
  env: Record<string, string>;
  client(): S3Client;
  stop(): Promise<void>;
}

/**
 * s3rver keeps the SDK's chunk framing in stored objects unless checksums are sent only when
 * required, and cannot list or abort multipart uploads: see ../../shared/STACK.md.
 */
export async function startS3rver(): Promise<TestObjectStorage> {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: TEST_BUCKET }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const checksums = { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } as const;
  return {
    endpoint,
    listsUploads: false,
    env: {
      ...credentialsEnv(endpoint),
      AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
      AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    },
    client: () => testClient(endpoint, checksums),
    async stop() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

export function motoServerInstalled(): boolean {
  return spawnSync('moto_server', ['--help'], { stdio: 'ignore' }).status === 0;
}

export async function startMotoServer(): Promise<TestObjectStorage> {
  const port = await freePort();
  const child: ChildProcess = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = testClient(endpoint);
  const started = Date.now();
  for (;;) {
    try {
      await client.send(new CreateBucketCommand({ Bucket: TEST_BUCKET }));
      break;
    } catch (error) {
      if (child.exitCode !== null || Date.now() - started > 30_000) throw new Error(`moto_server did not start: ${String(error)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  client.destroy();
  return {
    endpoint,
    listsUploads: true,
    env: credentialsEnv(endpoint),
    client: () => testClient(endpoint),
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

function testClient(endpoint: string, extra: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({ ...blobStoreClientSettings(), endpoint, forcePathStyle: true, region: 'us-east-1', credentials: CREDENTIALS, ...extra });
}

function credentialsEnv(endpoint: string): Record<string, string> {
  return {
    AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    AWS_REGION: 'us-east-1',
    AWS_ENDPOINT_URL_S3: endpoint,
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Points this process's S3 clients at the storage (in-process servers read their credentials
 * from the environment, as in production); the returned function puts the environment back.
 */
export function useStorageInProcess(storage: TestObjectStorage): () => void {
  const saved = Object.keys(storage.env).map((name) => [name, process.env[name]] as const);
  Object.assign(process.env, storage.env);
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
