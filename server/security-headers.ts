// The security headers every answer carries (app.ts's onSend hook, and the embedded sign-in
// provider, whose hijacked answers skip that hook).

/**
 * Headers of every answer, the sign-in provider's under /oidc included. HSTS only when the
 * portal is reached over https (over http a browser ignores it anyway).
 */
export function securityHeaders(publicUrl: string): Record<string, string> {
  return {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
    ...(new URL(publicUrl).protocol === 'https:' ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}
