// A stand-in for the browser's EventSource (Node and happy-dom have none): the screens open their
// progress streams through it, and a test pushes progress messages into the open streams.
import { act } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import type { ProgressMessage } from '../../../generated/hooks/model';

export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];

  readonly url: string;
  readonly withCredentials: boolean;
  readyState = FakeEventSource.OPEN;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onopen: ((event: Event) => void) | null = null;

  constructor(url: string | URL, init?: { withCredentials?: boolean }) {
    this.url = String(url);
    this.withCredentials = init?.withCredentials ?? false;
    FakeEventSource.instances.push(this);
  }

  close(): void {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** Delivers one message, as a server-sent `data:` line would (a closed stream gets nothing). */
  emit(message: ProgressMessage): boolean {
    if (this.readyState === FakeEventSource.CLOSED) return false;
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
    return true;
  }
}

/** Replaces EventSource for each test of the file. */
export function installFakeEventSource(): void {
  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
}

/** The open streams whose path contains `fragment` (e.g. "send_to_study_helpers/file-1"). */
export function openStreams(fragment: string): FakeEventSource[] {
  return FakeEventSource.instances.filter(
    (source) => source.readyState !== FakeEventSource.CLOSED && new URL(source.url, 'http://localhost').pathname.includes(fragment),
  );
}

/** Every stream ever opened whose path contains `fragment`. */
export function streamsOpened(fragment: string): FakeEventSource[] {
  return FakeEventSource.instances.filter((source) => new URL(source.url, 'http://localhost').pathname.includes(fragment));
}

/** Sends a progress message into every open stream matching `fragment`; returns how many got it. */
export function emitProgress(fragment: string, message: ProgressMessage): number {
  let delivered = 0;
  act(() => {
    for (const source of openStreams(fragment)) if (source.emit(message)) delivered += 1;
  });
  return delivered;
}
