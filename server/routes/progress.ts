// Progress of background jobs as server-sent events: the current state at once (so a listener
// arriving late still sees where the job is), then every change, closing after success or
// failure. Any server process can serve a stream: state is read from job_progress, whichever
// process runs the job.
import { PassThrough } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { congregationScope } from '../auth/session';
import type { Route } from '../contract/types';
import { forbidden, notFound } from '../http-error';
import { fileSentToCongregation } from '../repositories/files';
import { gradedUploadIsCongregations } from '../repositories/graded-uploads';
import { isFinished, JOB, readProgress, type ProgressKey } from '../workflow/job-progress';
import { findRun } from '../repositories/job-progress';

const RUN_NOT_FOUND = 'No such job run';
/** A comment line now and then keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 15_000;

export async function progressRoutes(app: FastifyInstance) {
  // Streams still open when the server stops are ended, so close() does not wait on them.
  const open = new Set<() => void>();
  app.addHook('onClose', async () => {
    for (const end of [...open]) end();
  });

  app.get<Route<'streamJobProgress'>>('/api/progress/:group_name/:run_id', async (request, reply) => {
    const key = { group_name: request.params.group_name, run_id: request.params.run_id };
    return stream(app, open, request, reply, key);
  });

  app.get<Route<'streamProgress'>>('/api/progress/:id', async (request, reply) => {
    const key = await findRun(app.db, request.params.id);
    if (key === null) throw notFound(RUN_NOT_FOUND);
    return stream(app, open, request, reply, key);
  });
}

async function stream(app: FastifyInstance, open: Set<() => void>, request: FastifyRequest, reply: FastifyReply, key: ProgressKey) {
  const scope = congregationScope(request);
  const current = await readProgress(app.db, key);
  if (current === null) throw notFound(RUN_NOT_FOUND);
  if (scope !== null && !(await coordinatorMayFollow(app, key, scope))) throw forbidden();

  const body = new PassThrough();
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    open.delete(end);
    unsubscribe();
    clearInterval(keepAlive);
    body.end();
  };
  const unsubscribe = app.progress.subscribe(key, (message) => {
    if (ended) return;
    body.write(`data: ${JSON.stringify(message)}\n\n`);
    if (isFinished(message.status)) end();
  });
  const keepAlive = setInterval(() => body.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  keepAlive.unref?.();
  open.add(end);
  reply.raw.on('close', end);

  reply.header('content-type', 'text/event-stream; charset=utf-8');
  reply.header('cache-control', 'no-cache, no-transform');
  reply.header('x-accel-buffering', 'no');
  return reply.send(body);
}

/** A coordinator follows only jobs about its own congregation's files. */
async function coordinatorMayFollow(app: FastifyInstance, key: ProgressKey, congregationId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(key.run_id)) return false;
  if (key.group_name === JOB.processGradedUpload) {
    return gradedUploadIsCongregations(app.db, key.run_id, congregationId);
  }
  return fileSentToCongregation(app.db, key.run_id, congregationId);
}
