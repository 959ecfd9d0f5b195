// Persistence for the embedded sign-in provider: its records (oidc-provider's adapter
// interface) and its secrets (client secret, cookie keys, signing key) live in the database,
// so every process of one installation acts as the same provider and restarts lose nothing.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { errors } from 'oidc-provider';
import type { Database } from '../db/database.js';

/** Models whose records hang on a grant and go when it is revoked (as in oidc-provider's memory adapter). */
const GRANTABLE = ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest', 'PreAuthorizedCode'];
/** Slack past a record's own expiry; oidc-provider checks `exp` inside payloads itself. */
const EXPIRY_SLACK_SECONDS = 60;
const PURGE_EVERY_UPSERTS = 50;

type Payload = Record<string, unknown>;

/**
 * Values from a request body the provider reads itself (the app's NUL check sees only URLs and
 * bodies Fastify parses): NUL, or a lone surrogate escaped in JSON, would make PostgreSQL fail
 * (a 500); the provider answers this error as 400 invalid_request.
 */
function refuseUnstorable(...texts: string[]): void {
  if (texts.some((text) => text.includes('\0') || /\\u0000|\\ud[89a-f]/i.test(text))) {
    throw new errors.InvalidRequest('the request contains characters that are not allowed');
  }
}

export function databaseAdapterFactory(db: Database) {
  let upserts = 0;

  class DatabaseAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      refuseUnstorable(id, JSON.stringify(payload));
      await db.query(
        `INSERT INTO oidc_provider_records (model, id, payload, grant_id, user_code, uid, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6,
                 CASE WHEN $7::int IS NULL THEN NULL ELSE now() + make_interval(secs => $7::int) END)
         ON CONFLICT (model, id) DO UPDATE SET
           payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id, user_code = EXCLUDED.user_code,
           uid = EXCLUDED.uid, expires_at = EXCLUDED.expires_at, consumed_at = NULL`,
        [
          this.model,
          id,
          payload,
          typeof payload.grantId === 'string' ? payload.grantId : null,
          typeof payload.userCode === 'string' ? payload.userCode : null,
          typeof payload.uid === 'string' ? payload.uid : null,
          typeof expiresIn === 'number' ? Math.ceil(expiresIn) + EXPIRY_SLACK_SECONDS : null,
        ],
      );
      upserts += 1;
      if (upserts % PURGE_EVERY_UPSERTS === 0) {
        await db.query('DELETE FROM oidc_provider_records WHERE expires_at < now()');
      }
    }

    find(id: string): Promise<Payload | undefined> {
      return this.findWhere('id = $2', id);
    }

    findByUid(uid: string): Promise<Payload | undefined> {
      return this.findWhere('uid = $2', uid);
    }

    findByUserCode(userCode: string): Promise<Payload | undefined> {
      return this.findWhere('user_code = $2', userCode);
    }

    async consume(id: string): Promise<void> {
      refuseUnstorable(id);
      await db.query('UPDATE oidc_provider_records SET consumed_at = now() WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async destroy(id: string): Promise<void> {
      refuseUnstorable(id);
      await db.query('DELETE FROM oidc_provider_records WHERE model = $1 AND id = $2', [this.model, id]);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.query('DELETE FROM oidc_provider_records WHERE grant_id = $1 AND model = ANY($2::text[])', [grantId, GRANTABLE]);
    }

    private async findWhere(condition: string, value: string): Promise<Payload | undefined> {
      refuseUnstorable(value);
      const row = await db.maybeOne<{ payload: Payload; consumed_at: Date | null }>(
        `SELECT payload, consumed_at FROM oidc_provider_records
         WHERE model = $1 AND ${condition} AND (expires_at IS NULL OR expires_at > now())
         LIMIT 1`,
        [this.model, value],
      );
      if (row === null) return undefined;
      return row.consumed_at === null
        ? row.payload
        : { ...row.payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) };
    }
  }

  return (model: string) => new DatabaseAdapter(model);
}

export interface ProviderSecrets {
  clientSecret: string;
  cookieKeys: string[];
  jwks: Record<string, unknown>[];
}

const SECRETS_KEY = 'embedded_oidc_provider';

/** Created once per installation; every process reads the same ones. */
export async function providerSecrets(db: Database): Promise<ProviderSecrets> {
  const existing = await db.maybeOne<{ value: ProviderSecrets }>('SELECT value FROM app_settings WHERE key = $1', [SECRETS_KEY]);
  if (existing !== null) return existing.value;
  const fresh: ProviderSecrets = {
    clientSecret: randomBytes(32).toString('base64url'),
    cookieKeys: [randomBytes(32).toString('base64url')],
    jwks: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as Record<string, unknown>],
  };
  // Two processes starting at once: the first insert wins and both read it back.
  await db.query('INSERT INTO app_settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [SECRETS_KEY, fresh]);
  return (await db.one<{ value: ProviderSecrets }>('SELECT value FROM app_settings WHERE key = $1', [SECRETS_KEY])).value;
}
