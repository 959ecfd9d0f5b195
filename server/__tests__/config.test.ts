import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';

describe('loadConfig', () => {
  it('has a default for everything', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('./data'),
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      oidc: undefined,
      adminEmails: [],
      allowDatabaseDelete: false,
      sessionTtlHours: 12,
      logLevel: 'info',
      demoData: undefined,
      demoFiles: true,
      bodyTimeoutSeconds: 30,
      mailFrom: 'Bible Study Portal <no-reply@localhost>',
    });
  });

  it('reads the environment', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATA_DIR: '/var/lib/portal',
      PUBLIC_URL: 'https://portal.example.org/',
      DATABASE_URL: 'postgres://user@db:5432/portal',
      OIDC_ISSUER: 'https://login.example.org/realms/portal/',
      OIDC_CLIENT_ID: 'portal',
      OIDC_CLIENT_SECRET: 's3cret',
      ADMIN_EMAILS: ' Boss@Example.org , second@example.org,,',
      ALLOW_DATABASE_DELETE: 'true',
      SESSION_TTL_HOURS: '1.5',
      LOG_LEVEL: 'WARN',
      DEMO_DATA: 'false',
      DEMO_FILES: 'false',
      BODY_TIMEOUT_SECONDS: '5',
    });
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/var/lib/portal',
      publicUrl: 'https://portal.example.org',
      databaseUrl: 'postgres://user@db:5432/portal',
      oidc: { issuer: 'https://login.example.org/realms/portal', clientId: 'portal', clientSecret: 's3cret' },
      adminEmails: ['boss@example.org', 'second@example.org'],
      allowDatabaseDelete: true,
      sessionTtlHours: 1.5,
      logLevel: 'warn',
      demoData: false,
      demoFiles: false,
      bodyTimeoutSeconds: 5,
      mailFrom: 'Bible Study Portal <no-reply@portal.example.org>',
    });
  });

  it('reads SMTP_URL and MAIL_FROM; without SMTP_URL mail is only recorded', () => {
    expect(loadConfig({}).smtpUrl).toBeUndefined();
    expect(loadConfig({ SMTP_URL: 'smtp://user:pass@mail.example.org:587', MAIL_FROM: 'Portal <portal@example.org>' })).toMatchObject({
      smtpUrl: 'smtp://user:pass@mail.example.org:587',
      mailFrom: 'Portal <portal@example.org>',
    });
    expect(loadConfig({ SMTP_URL: 'smtps://mail.example.org' }).smtpUrl).toBe('smtps://mail.example.org');
    expect(() => loadConfig({ SMTP_URL: 'mail.example.org:25' })).toThrow(/SMTP_URL must start with smtp:\/\/ or smtps:\/\//);
  });

  it('reads BLOB_STORE: stored files in object storage; unset, in DATA_DIR', () => {
    expect(loadConfig({}).objectStorage).toBeUndefined();
    expect(loadConfig({ BLOB_STORE: 's3://portal-files/prod/', AWS_REGION: 'eu-west-1' }).objectStorage).toEqual({
      bucket: 'portal-files',
      prefix: 'prod/',
      endpoint: undefined,
      region: 'eu-west-1',
    });
    // Another S3-compatible service: its endpoint, and a region it ignores.
    expect(loadConfig({ BLOB_STORE: 's3://portal-files', AWS_ENDPOINT_URL_S3: 'http://minio:9000' }).objectStorage).toEqual({
      bucket: 'portal-files',
      prefix: '',
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
    });
    expect(() => loadConfig({ BLOB_STORE: '/mnt/shared/blobs' })).toThrow(
      'BLOB_STORE must be s3://BUCKET or s3://BUCKET/PREFIX (got "/mnt/shared/blobs"); leave it unset to keep files in DATA_DIR',
    );
    expect(() => loadConfig({ BLOB_STORE: 's3://Portal_Files', AWS_REGION: 'eu-west-1' })).toThrow(/"Portal_Files" is not a bucket name/);
    expect(() => loadConfig({ BLOB_STORE: 's3://portal-files' })).toThrow(/AWS_REGION is required with BLOB_STORE on AWS S3/);
    expect(() => loadConfig({ BLOB_STORE: 's3://portal-files', AWS_ENDPOINT_URL_S3: 'minio:9000' })).toThrow(
      /AWS_ENDPOINT_URL_S3 must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(() => loadConfig({ BLOB_STORE: 's3://portal-files', AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'key' })).toThrow(
      /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together/,
    );
  });

  it('reads PIPELINE_THREADS, from 1 to 16 (pages are never read on the job thread)', () => {
    expect(loadConfig({}).trustProxyHops).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxyHops).toBe(1);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow('TRUST_PROXY must be an integer from 0 to 10');
    expect(loadConfig({}).pipelineThreads).toBeUndefined();
    expect(() => loadConfig({ PIPELINE_THREADS: '0' })).toThrow(/PIPELINE_THREADS must be an integer from 1 to 16/);
    expect(loadConfig({ PIPELINE_THREADS: '1' }).pipelineThreads).toBe(1);
    expect(() => loadConfig({ PIPELINE_THREADS: 'two' })).toThrow(/PIPELINE_THREADS must be an integer from 1 to 16/);
  });

  it('derives PUBLIC_URL from PORT', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        PUBLIC_URL: 'ftp://x',
        DATABASE_URL: 'mysql://x',
        OIDC_CLIENT_ID: 'lonely',
        ADMIN_EMAILS: 'not-an-email',
        ALLOW_DATABASE_DELETE: 'maybe',
        SESSION_TTL_HOURS: '-1',
        LOG_LEVEL: 'loud',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(8);
    expect((error as ConfigError).message).toContain('PORT must be an integer');
    expect(problems.join('\n')).toMatch(/PUBLIC_URL.*DATABASE_URL.*OIDC_CLIENT_ID.*ADMIN_EMAILS.*ALLOW_DATABASE_DELETE.*SESSION_TTL_HOURS.*LOG_LEVEL/s);
  });

  it('needs a client id with an external issuer and refuses a PUBLIC_URL with a path', () => {
    expect(() => loadConfig({ OIDC_ISSUER: 'https://login.example.org' })).toThrow('OIDC_CLIENT_ID is required');
    expect(() => loadConfig({ PUBLIC_URL: 'https://example.org/portal' })).toThrow('without a path');
  });
});
