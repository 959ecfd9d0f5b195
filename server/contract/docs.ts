// A browsable API reference at /api/docs, rendered by Redoc from the bundled contract.
// Redoc's script is served from node_modules: no CDN, works offline.
import { createReadStream } from 'node:fs';
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
    <script>
      Redoc.init('/api/docs/openapi.json', { hideDownloadButton: false, expandResponses: '200,201' }, document.getElementById('redoc'));
    </script>
  </body>
</html>`;

export async function docsRoutes(app: FastifyInstance) {
  app.get('/api/docs', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  );
  app.get('/api/docs/openapi.json', async () => contract().document);
  app.get('/api/docs/redoc.standalone.js', async (_request, reply) =>
    reply
      .type('application/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(createReadStream(redocScript)),
  );
}
