// Every /api route module, bound to the contract. buildApp registers these plugins first so
// the contract plugin's onRoute hook sees every route (auth and /healthz included).
import type { FastifyInstance } from 'fastify';
import type { AppPlugin } from '../app';
import { contractPlugin } from '../contract/plugin';
import { docsRoutes } from '../contract/docs';
import { effectiveSubject } from './subject';
import { invalidateTotals } from '../repositories/sql/count-cache';
// Route modules, one per contract tag (keep one import and one list entry per module):
// ROUTE-MODULE-IMPORTS
import { jobsPlugin } from '../jobs/jobs-plugin';
import { filesRoutes } from './files';
import { answerSheetsRoutes } from './answer-sheets';
import { pagesRoutes } from './pages';
import { progressRoutes } from './progress';
import { qrRoutes } from './qr';
import { referenceRoutes } from './reference';
import { serviceCenterRoutes } from './service-centers';
import { congregationRoutes } from './congregations';
import { studyHelperRoutes } from './study-helpers';
import { studentRoutes } from './students';
import { baptismRoutes } from './baptism';
import { uploadRoutes } from './uploads';
import { resumableUploadRoutes } from './uploads/resumable';
import { databaseRoutes } from './database';
import { mailRoutes } from './mail';

/** Every write through the API drops the cached list totals (see shared/count-cache.ts). */
async function freshTotalsAfterWrites(app: FastifyInstance) {
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') invalidateTotals(app.db);
    return payload;
  });
}
(freshTotalsAfterWrites as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

const routeModules: Array<(app: FastifyInstance) => Promise<void>> = [
  freshTotalsAfterWrites,
  docsRoutes,
  // ROUTE-MODULE-LIST
  // The job queue first: route modules reach it as app.jobs / app.progress.
  jobsPlugin,
  filesRoutes,
  answerSheetsRoutes,
  pagesRoutes,
  progressRoutes,
  qrRoutes,
  referenceRoutes,
  serviceCenterRoutes,
  congregationRoutes,
  studyHelperRoutes,
  studentRoutes,
  baptismRoutes,
  uploadRoutes,
  resumableUploadRoutes,
  databaseRoutes,
  mailRoutes,
];

export interface ApiPluginOptions {
  /** Validate every JSON response against the contract (tests, contract checks). */
  validateResponses?: boolean;
}

export function apiPlugins(options: ApiPluginOptions = {}): AppPlugin[] {
  return [
    {
      plugin: contractPlugin,
      options: {
        getSubject: effectiveSubject,
        validateResponses: options.validateResponses ?? false,
      },
    },
    ...routeModules,
  ];
}
