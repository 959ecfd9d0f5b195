// Following a background job's progress (spec §7 "Progress"): the server-sent event stream of
// GET /api/progress/{group_name}/{run_id}, read with the browser's EventSource. Each message's data
// is a ProgressMessage; the server closes the stream once the job succeeded or failed, and the
// stream is closed here too then, so EventSource does not reconnect to a finished job.
import { useEffect, useRef, useState } from 'react';
import { getStreamJobProgressUrl } from '../../../generated/hooks/progress/progress';
import type { JobType, ProgressMessage } from '../../../generated/hooks/model';
import { isProgressDone } from '../../../machines/file-workflow/file-workflow.rules';

/** The stream's address for a job run. */
export function progressStreamUrl(groupName: JobType, runId: string): string {
  return getStreamJobProgressUrl(groupName, runId);
}

/** A job has nothing more to say: it finished, failed, or went past the done threshold. */
export function isProgressFinished(message: ProgressMessage): boolean {
  return message.status === 'success' || message.status === 'failed' || isProgressDone(message);
}

/** The share of the job done, 0 to 100, for a progress bar. */
export function progressPercent(message: Pick<ProgressMessage, 'completed' | 'count'> | null): number {
  if (!message || message.count <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((message.completed / message.count) * 100)));
}

function parseMessage(data: unknown): ProgressMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as Partial<ProgressMessage> | null;
    if (!value || typeof value.status !== 'string') return null;
    return {
      ...value,
      status: value.status,
      completed: Number(value.completed ?? 0),
      count: Number(value.count ?? 0),
      failed: Number(value.failed ?? 0),
    } as ProgressMessage;
  } catch {
    return null;
  }
}

/**
 * Opens a stream and calls `onMessage` for each progress message; returns the function that
 * closes it. Without EventSource (no browser) nothing is opened.
 */
export function openProgressStream(url: string, onMessage: (message: ProgressMessage) => void): () => void {
  const Source = globalThis.EventSource;
  if (typeof Source !== 'function') return () => undefined;
  const source = new Source(url, { withCredentials: true });
  source.onmessage = (event: MessageEvent) => {
    const message = parseMessage(event.data);
    if (!message) return;
    if (isProgressFinished(message)) source.close();
    onMessage(message);
  };
  // A refused stream (no such run, 403) ends in CLOSED; a dropped one reconnects by itself.
  source.onerror = () => undefined;
  return () => source.close();
}

/**
 * Follows the stream at `url` while it is not null (a new url opens a new stream; `key` reopens
 * the same url). Returns the last message; `onMessage` sees every one.
 */
export function useProgressStream(
  url: string | null,
  onMessage?: (message: ProgressMessage) => void,
  key?: string | number,
): ProgressMessage | null {
  const [last, setLast] = useState<{ url: string; message: ProgressMessage } | null>(null);
  const handler = useRef(onMessage);
  useEffect(() => {
    handler.current = onMessage;
  }, [onMessage]);
  useEffect(() => {
    if (url === null) return undefined;
    return openProgressStream(url, (message) => {
      setLast({ url, message });
      handler.current?.(message);
    });
  }, [url, key]);
  return last !== null && last.url === url ? last.message : null;
}
