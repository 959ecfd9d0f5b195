// Queues the job a call has just recorded as requested. A failed enqueue leaves the work
// requested in the database: the workers' recovery sweep picks it up, so the call still succeeds.
import type { FastifyRequest } from 'fastify';
import type { JOB } from '../../workflow/job-progress';

export async function queueJob(request: FastifyRequest, name: (typeof JOB)[keyof typeof JOB], data: object, key: string): Promise<void> {
  await request.server.jobs.send(name, data, { singletonKey: key }).catch((error: unknown) => {
    request.log.warn({ err: error, job: name, key }, 'could not queue the job');
  });
}
