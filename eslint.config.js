// Lint rules, including the import boundaries of the architecture:
// web (src/) never imports server/, server/ never imports src/, machines/ and demo/ import neither,
// no import cycles anywhere, and the server's layers point one way:
// routes -> jobs -> workflow -> pdf -> pipeline -> repositories -> db (only main.ts imports routes),
// and every layer may use domain/: the product's pure rules, which import only the contract's types.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const boundary = (target, from, message) => ({ target, from, message });

// src/README.md: imports flow one way, config, lib, components → features → app. A feature
// imports no other feature: what two features share lives in components/ or lib/.
const features = readdirSync(join(import.meta.dirname, 'src/features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const featureZones = features.map((name) => ({
  target: `./src/features/${name}`,
  from: './src/features',
  except: [`./${name}`],
  message: 'A feature imports no other feature: move what they share to src/components or src/lib.',
}));

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      'build/**',
      'data/**',
      'openapi/dist/**',
      'generated/**',
      'test-results/**',
      'bench/results/**',
      'tests/fixtures/generated/**',
      'public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    settings: { 'import-x/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            boundary('./src', './server', 'The web app never imports server code.'),
            boundary('./server', './src', 'The server never imports web code.'),
            boundary('./machines', './src', 'Machines are pure: no web imports.'),
            boundary('./machines', './server', 'Machines are pure: no server imports.'),
            boundary('./generated', './src', 'Generated code depends on nothing hand-written in src.'),
            boundary('./demo', ['./server', './src', './machines'], 'demo/ is the demo programme\'s pure data, shared by the server and the web app: it imports neither.'),
            boundary(['./server/!(routes)/**', './server/!(main).ts'], './server/routes', 'Only server/main.ts imports routes: nothing below them does.'),
            boundary('./server/workflow/*.ts', './server/jobs', 'The workflow is the jobs\' domain work: it never imports the runner.'),
            boundary('./server/pdf/*.ts', ['./server/workflow', './server/jobs'], 'pdf/ draws pages: it knows nothing of workflow or jobs.'),
            boundary('./server/pipeline/*.ts', ['./server/workflow', './server/jobs', './server/pdf'], 'The pipeline reads scans: no workflow, jobs or pdf.'),
            boundary(
              './server/domain/*.ts',
              ['./server/!(domain|contract)/**', './server/*.ts', './server/contract/!(types).ts'],
              'domain/ holds the pure rules: it imports nothing of the server but the contract\'s types.',
            ),
            boundary('./server/repositories/**', ['./server/workflow', './server/jobs', './server/pipeline', './server/pdf'], 'Repositories hold SQL: they import db/ and nothing above it.'),
            boundary('./server/db/*.ts', ['./server/workflow', './server/jobs', './server/pipeline', './server/pdf', './server/repositories'], 'db/ is the bottom layer: it imports no layer above it.'),
            ...featureZones,
            boundary('./src/components', './src/features', 'Components are shared by features: they import none.'),
            boundary('./src/lib', './src/features', 'lib is shared by features: it imports none.'),
            boundary('./src/config', './src/features', 'config is shared by features: it imports none.'),
          ],
        },
      ],
    },
  },
  {
    // server/repositories/README.md: routes, jobs and workflow call repositories and write no SQL.
    files: ['server/routes/**/*.ts', 'server/jobs/**/*.ts', 'server/workflow/**/*.ts'],
    ignores: ['**/__tests__/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'TemplateElement[value.raw=/\\b(SELECT|INSERT\\s+INTO|DELETE\\s+FROM|UPDATE\\s+\\w+\\s+SET|ON\\s+CONFLICT)\\b/]',
          'Literal[value=/\\b(SELECT|INSERT\\s+INTO|DELETE\\s+FROM|UPDATE\\s+\\w+\\s+SET|ON\\s+CONFLICT)\\b/]',
          'CallExpression[callee.property.name=/^(query|one|maybeOne|execute)$/]',
        ].map((selector) => ({ selector, message: 'SQL lives in server/repositories (its README says how); call a repository function.' })),
      ],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
