// The embedded provider's sign-in page: plain server-rendered HTML in the portal's colours
// (primary red, secondary blue), no script, so it works before the web app has loaded.

export const PORTAL_TITLE = 'Bible Study Portal';

export interface SignInPageOptions {
  action: string;
  cancelAction: string;
  email?: string;
  error?: string;
  /** Demo accounts to show as a hint on a fresh install; empty in production. */
  demoAccounts?: readonly string[];
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;
  font-family:system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;background:#f4f5f7;color:#1f2937}
main{width:100%;max-width:380px;background:#fff;border-radius:8px;box-shadow:0 2px 12px rgba(0,0,0,.12);overflow:hidden}
header{background:#b91c1c;color:#fff;padding:20px 24px}
header h1{margin:0;font-size:1.3rem;font-weight:600}
header p{margin:4px 0 0;font-size:.9rem;opacity:.9}
form{padding:20px 24px 8px}
label{display:block;font-size:.9rem;font-weight:600;margin:12px 0 4px}
input{width:100%;padding:10px 12px;border:1px solid #9ca3af;border-radius:6px;font-size:1rem}
input:focus{outline:2px solid #1d4ed8;outline-offset:1px;border-color:#1d4ed8}
button{width:100%;margin-top:20px;padding:11px;border:0;border-radius:6px;background:#b91c1c;color:#fff;font-size:1rem;font-weight:600;cursor:pointer}
button:hover{background:#991b1b}
.cancel{padding:0 24px 20px}
.cancel button{background:transparent;color:#1d4ed8;margin-top:4px;font-weight:500}
.cancel button:hover{background:#eff6ff}
.error{margin:0 0 4px;padding:10px 12px;border-radius:6px;background:#fef2f2;color:#991b1b;border:1px solid #fecaca;font-size:.9rem}
.hint{margin:0 24px 20px;padding:10px 12px;border-radius:6px;background:#eff6ff;color:#1e3a8a;font-size:.85rem}
`;

export function renderSignInPage(options: SignInPageOptions): string {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const hint =
    options.demoAccounts && options.demoAccounts.length > 0
      ? `<p class="hint">Demo accounts: ${options.demoAccounts.map(escapeHtml).join(', ')} (password "demo").</p>`
      : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in - ${escapeHtml(PORTAL_TITLE)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<header><h1>${escapeHtml(PORTAL_TITLE)}</h1><p>Sign in to continue</p></header>
<form method="post" action="${escapeHtml(options.action)}" autocomplete="on">
${error}
<label for="email">E-mail</label>
<input id="email" name="email" type="email" required autofocus autocomplete="username" value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" required autocomplete="current-password">
<button type="submit">Sign in</button>
</form>
<form class="cancel" method="post" action="${escapeHtml(options.cancelAction)}"><button type="submit">Cancel</button></form>
${hint}
</main>
</body>
</html>`;
}

/** A sign-in the portal refuses to finish (started in another browser, or expired): no session. */
export function renderSignInProblemPage(message: string): string {
  return smallPage(
    'Sign-in problem',
    '.problem{padding:20px 24px}\n.problem a{color:#1d4ed8;font-weight:600}',
    `<header><h1>${escapeHtml(PORTAL_TITLE)}</h1><p>Sign-in problem</p></header>
<div class="problem">
<p class="error" role="alert">${escapeHtml(message)}</p>
<p><a href="/api/auth/login">Sign in again</a></p>
</div>`,
  );
}

/**
 * What GET /api/auth/logout shows: a button that posts the sign-out. A GET changes nothing, so
 * a link or image on another site cannot sign anyone out.
 */
export function renderLogoutPage(action: string): string {
  return smallPage(
    'Log Out',
    '.cancel a{display:block;text-align:center;color:#1d4ed8;padding:8px;font-weight:500}',
    `<header><h1>${escapeHtml(PORTAL_TITLE)}</h1><p>Log out of the portal?</p></header>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Log Out</button></form>
<div class="cancel"><a href="/">Stay signed in</a></div>`,
  );
}

/** A page of the sign-in pages' kind: the title, styles on top of theirs, and the card's content. */
function smallPage(title: string, style: string, content: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} - ${escapeHtml(PORTAL_TITLE)}</title>
<style>${STYLE}
${style}
</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>`;
}
