// A small cookie jar for driving sign-in flows with fetch or app.inject like a browser:
// honours Path, Max-Age and Expires (enough for our server and oidc-provider's cookies).

interface StoredCookie {
  name: string;
  value: string;
  path: string;
  expires: number | null;
}

export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  /** Takes the Set-Cookie headers of a response (fetch Headers or light-my-request headers). */
  store(setCookie: string | string[] | undefined | null): void {
    const lines = setCookie === undefined || setCookie === null ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
    for (const line of lines) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const separator = pair.indexOf('=');
      if (separator <= 0) continue;
      const cookie: StoredCookie = {
        name: pair.slice(0, separator),
        value: pair.slice(separator + 1),
        path: '/',
        expires: null,
      };
      for (const attribute of attributes) {
        const [key = '', value = ''] = attribute.split('=');
        const lower = key.toLowerCase();
        if (lower === 'path') cookie.path = value || '/';
        else if (lower === 'max-age') cookie.expires = Date.now() + Number(value) * 1000;
        else if (lower === 'expires' && cookie.expires === null) cookie.expires = Date.parse(value);
      }
      const key = `${cookie.name};${cookie.path}`;
      if (cookie.expires !== null && cookie.expires <= Date.now()) this.cookies.delete(key);
      else this.cookies.set(key, cookie);
    }
  }

  storeFrom(response: Response): void {
    this.store(response.headers.getSetCookie());
  }

  /** The Cookie header for a request path ('' when none apply). */
  header(path: string): string {
    const now = Date.now();
    return [...this.cookies.values()]
      .filter((cookie) => (cookie.expires === null || cookie.expires > now) && pathMatches(path, cookie.path))
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join('; ');
  }

  get(name: string): string | undefined {
    for (const cookie of this.cookies.values()) if (cookie.name === name) return cookie.value;
    return undefined;
  }
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}
