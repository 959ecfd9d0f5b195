// The relying-party side of sign-in (openid-client 6): authorization code flow with PKCE,
// the same code for the embedded provider and for an external issuer.
import * as client from 'openid-client';

export interface OidcClientOptions {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  /** PUBLIC_URL + /api/auth/callback */
  redirectUri: string;
  /**
   * Transport for the server-to-server calls (discovery, token, userinfo, keys). The embedded
   * provider is reached in-process, so sign-in works even where the server cannot reach its
   * own PUBLIC_URL (containers behind a port mapping or a proxy).
   */
  fetch?: client.CustomFetch;
}

export interface SignInChecks {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcClient {
  /** Fresh random checks to store until the callback, and the issuer URL to send the browser to. */
  start(): Promise<{ checks: SignInChecks; url: URL }>;
  /** Finishes the flow from the callback URL the browser arrived on; returns the verified e-mail. */
  finish(callbackUrl: URL, checks: SignInChecks): Promise<{ email: string; subject: string }>;
}

export class SignInError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'SignInError';
  }
}

export function createOidcClient(options: OidcClientOptions): OidcClient {
  let discovered: Promise<client.Configuration> | undefined;

  // Discovery is lazy (the embedded provider is served by this very server, which is not
  // listening yet while the app is built) and retried after a failure.
  const configuration = (): Promise<client.Configuration> => {
    if (discovered === undefined) {
      const insecure = new URL(options.issuer).protocol === 'http:';
      const discoveryOptions: client.DiscoveryRequestOptions = {};
      if (insecure) discoveryOptions.execute = [client.allowInsecureRequests];
      if (options.fetch) discoveryOptions[client.customFetch] = options.fetch;
      discovered = client.discovery(new URL(options.issuer), options.clientId, options.clientSecret, undefined, discoveryOptions);
      discovered.catch(() => {
        discovered = undefined;
      });
    }
    return discovered;
  };

  return {
    async start() {
      const config = await configuration();
      const checks: SignInChecks = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        codeVerifier: client.randomPKCECodeVerifier(),
      };
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: options.redirectUri,
        scope: 'openid email',
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: 'S256',
      });
      return { checks, url };
    },

    async finish(callbackUrl, checks) {
      const config = await configuration();
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
      } catch (error) {
        throw new SignInError('The sign-in could not be completed', { cause: error });
      }
      const claims = tokens.claims();
      if (claims === undefined) throw new SignInError('The issuer returned no ID token');
      let source: Record<string, unknown> = claims;
      // Many issuers put e-mail only in userinfo when an access token is issued.
      if (typeof claims.email !== 'string') {
        source = await client.fetchUserInfo(config, tokens.access_token, claims.sub);
      }
      const email = typeof source.email === 'string' ? source.email : '';
      if (email === '') throw new SignInError('The issuer did not share an e-mail address');
      // Roles hang on the e-mail, so an address the issuer says it has not verified is refused.
      if (source.email_verified === false) throw new SignInError('The e-mail address is not verified');
      return { email, subject: claims.sub };
    },
  };
}
