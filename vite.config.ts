// The web app's build and dev server. `vite` proxies /api, /healthz and the embedded sign-in
// provider (/oidc) to the server (API_PROXY_TARGET, default http://localhost:3000; run the server
// with PUBLIC_URL set to the dev origin so sign-in returns here and same-origin checks pass).
// `vite --mode mock` answers every call in the browser with MSW instead (src/testing/mocks).
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { LARA_THEME_FILE, recolourLaraTheme } from './src/styles/recolour-lara-theme';

/** Lara light theme with the portal's red primary and blue secondary (see the module). */
function portalTheme(): Plugin {
  return {
    name: 'portal-theme',
    enforce: 'pre',
    transform(code, id) {
      return LARA_THEME_FILE.test(id) ? { code: recolourLaraTheme(code), map: null } : undefined;
    },
  };
}

/** In mock mode, sign-in and sign-out switch the mock user instead of reaching a server. */
function mockSignIn(): Plugin {
  return {
    name: 'mock-sign-in',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const path = request.url?.split('?')[0];
        const target = path === '/api/auth/login' ? '/?as=admin' : path === '/api/auth/logout' ? '/?as=signed-out' : null;
        if (!target) return next();
        // 303: the sign-out is a form's post, followed by a GET of the target.
        response.statusCode = 303;
        response.setHeader('location', target);
        response.end();
      });
    },
  };
}

export default defineConfig(({ mode }) => {
  const target = process.env.API_PROXY_TARGET ?? 'http://localhost:3000';
  const proxy: Record<string, ProxyOptions> | undefined =
    mode === 'mock'
      ? undefined
      : {
          '/api': { target, ws: false },
          '/healthz': { target },
          '/oidc': { target },
        };
  return {
    plugins: [react(), portalTheme(), ...(mode === 'mock' ? [mockSignIn()] : [])],
    server: { proxy },
    preview: { proxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // Flags stay separate files served from our origin, not data URIs inside the JS.
      assetsInlineLimit: (file: string) => (file.includes('country-flag-icons') ? false : undefined),
    },
  };
});
