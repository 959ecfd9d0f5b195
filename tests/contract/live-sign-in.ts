// Signs in to a live server through its embedded OpenID provider, as a browser would:
// follows the redirects with a cookie jar, posts the provider's sign-in form, and returns
// the portal's session cookie. Used by the contract check and the browser-less smoke tests.

type Jar = Map<string, string>;

function remember(jar: Jar, response: Response) {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (/expires=Thu, 01 Jan 1970/i.test(header) || value === '') jar.delete(name);
    else jar.set(name, value);
  }
}

const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

async function step(jar: Jar, url: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(url, {
    ...init,
    redirect: 'manual',
    headers: { ...(init.headers as Record<string, string>), cookie: cookieHeader(jar) },
  });
  remember(jar, response);
  return response;
}

/** Returns the Cookie header value to send as the signed-in user. */
export async function signInLive(
  baseUrl: string,
  email: string,
  password: string,
): Promise<string> {
  const jar: Jar = new Map();
  const origin = new URL(baseUrl).origin;
  let url = new URL('/api/auth/login', baseUrl).toString();
  for (let hop = 0; hop < 20; hop++) {
    const response = await step(jar, url);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      url = new URL(location, url).toString();
      if (new URL(url).pathname === '/' && [...jar.keys()].some((k) => k.includes('session'))) {
        const session = [...jar].filter(([k]) => k.includes('session'));
        return session.map(([k, v]) => `${k}=${v}`).join('; ');
      }
      continue;
    }
    if (response.status === 200 && (response.headers.get('content-type') ?? '').includes('html')) {
      const html = await response.text();
      const action = /<form[^>]*method="post"[^>]*action="([^"]+)"/i.exec(html)?.[1];
      if (!action) throw new Error(`No sign-in form at ${url}`);
      const posted = await step(jar, new URL(action.replace(/&amp;/g, '&'), url).toString(), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
        body: new URLSearchParams({ email, password }).toString(),
      });
      const next = posted.headers.get('location');
      if (!next) throw new Error(`Sign-in refused for ${email} (status ${posted.status})`);
      url = new URL(next, url).toString();
      continue;
    }
    throw new Error(`Unexpected answer ${response.status} at ${url}`);
  }
  throw new Error('Too many redirects while signing in');
}
