// Full-page navigations the app makes (sign-in, the sign-out post, the reload after View As). They leave
// the single-page app, so they go through this one object, which tests replace with spies.
export const browserLocation = {
  /** Loads another address as a new page (e.g. /api/auth/login). */
  assign(url: string): void {
    window.location.assign(url);
  },
  /** Changes the address bar without loading (the reload that follows loads it). */
  pushPath(path: string): void {
    window.history.pushState(null, '', path);
  },
  reload(): void {
    window.location.reload();
  },
  /** Posts an empty form to a same-origin address as a new page (sign-out: a GET changes nothing). */
  post(url: string): void {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = url;
    document.body.append(form);
    form.submit();
  },
};

/** Sign-in that lands back on `page` (the link opened while signed out), not on the Dashboard. */
export function signInAddress(loginPath: string, page: string): string {
  return page === '/' || page === '' ? loginPath : `${loginPath}?return_to=${encodeURIComponent(page)}`;
}
