// A browsable API reference at /api/docs, rendered by Redoc from the bundled contract.
// Redoc's script is served from node_modules: no CDN, works offline. Everything the page loads
// comes from this server, so it renders under the Content-Security-Policy: no inline script,
// no search (Redoc runs it in a worker made from a blob: URL, which the policy refuses) and no
// footer logo from Redocly's CDN (blanked in the served copy).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import { contract } from './contract';

const require = createRequire(import.meta.url);
const redocScript = require.resolve('redoc/bundles/redoc.standalone.js');

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Portal API reference</title>
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <div id="redoc"></div>
    <script src="/api/docs/redoc.standalone.js"></script>
    <script src="/api/docs/init.js"></script>
  </body>
</html>`;

const init = `Redoc.init('/api/docs/openapi.json', { hideDownloadButton: false, expandResponses: '200,201', disableSearch: true }, document.getElementById('redoc'));\n`;

let script: string | undefined;
const redoc = () => (script ??= readFileSync(redocScript, 'utf8').replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', 'data:,'));

export async function docsRoutes(app: FastifyInstance) {
  app.get('/api/docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  );
  app.get('/api/docs/openapi.json', async () => contract().document);
  app.get('/api/docs/init.js', async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').send(init),
  );
  app.get('/api/docs/redoc.standalone.js', async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(redoc()),
  );
}
