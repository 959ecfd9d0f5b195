// MSW handlers whose answers the test gives later: each request waits in a queue until the test
// answers it. Model-based tests use them so that an actor's result (done or error) arrives
// exactly when the graph path says.
import { http, type HttpResponseResolver, type RequestHandler } from 'msw';
import { waitFor } from '@testing-library/react';

type Method = 'get' | 'head' | 'post' | 'patch' | 'delete';

interface Waiting {
  request: Request;
  answer: (response: Response) => void;
}

export class GatedApi {
  private readonly queues = new Map<string, Waiting[]>();
  /** Every request each gate received, answered or not. */
  readonly received = new Map<string, Request[]>();

  /** A handler whose requests wait at gate `name`. */
  handler(method: Method, path: string, name: string): RequestHandler {
    return http[method](path, this.resolver(name));
  }

  /** The resolver of such a handler, for a handler that waits at the gate only some of the time. */
  resolver(name: string): HttpResponseResolver {
    return ({ request }) =>
      new Promise<Response>((resolve) => {
        this.queue(name).push({ request: request.clone(), answer: resolve });
        this.received.set(name, [...(this.received.get(name) ?? []), request.clone()]);
      });
  }

  private queue(name: string): Waiting[] {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = [];
      this.queues.set(name, queue);
    }
    return queue;
  }

  pending(name: string): number {
    return this.queue(name).length;
  }

  /** Waits for a request at the gate and answers the oldest one. */
  async answer(name: string, response: Response): Promise<Request> {
    await waitFor(() => {
      if (this.queue(name).length === 0) throw new Error(`no request waiting at ${name}`);
    });
    const waiting = this.queue(name).shift() as Waiting;
    waiting.answer(response);
    return waiting.request;
  }

  /** Answers whatever still waits (at the end of a test), so nothing hangs. */
  release(): void {
    for (const queue of this.queues.values()) {
      for (const waiting of queue.splice(0)) waiting.answer(new Response(null, { status: 503 }));
    }
  }
}
