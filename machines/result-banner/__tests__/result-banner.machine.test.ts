import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { getShortestPaths } from '@xstate/graph';
import { modelEvents, unreachedStateIds } from '../../__tests__/model-events';
import { BANNER_FADE_MS } from '../../constants';
import { bannerMessage, resultBannerMachine, type ResultBannerInput } from '../result-banner.machine';
import { resultBannerEventFixtures, resultBannerModelInput } from './result-banner.fixtures';

describe('bannerMessage', () => {
  it.each([
    ['DUPLICATE_FILE', 'This file has already been uploaded. Please upload a different file.'],
    ['VALIDATION_ERROR', "Invalid file format or corrupted file. Please ensure you're uploading a valid PDF file."],
    ['SERVER_ERROR', 'Server error occurred. Please try again later.'],
    ['NETWORK_ERROR', 'Upload failed. Please check your connection and try again.'],
    ['NO_FILES_UPLOADED', 'Operation failed. Please try again.'],
    ['UNKNOWN_ERROR', 'Operation failed. Please try again.'],
    ['toString', 'Operation failed. Please try again.'],
    [undefined, 'Operation failed. Please try again.'],
  ])('error %s → %s', (errorType, text) => {
    expect(bannerMessage({ type: 'error', errorType })).toBe(text);
  });

  it('ignores a message on an error', () => {
    expect(bannerMessage({ type: 'error', errorType: 'SERVER_ERROR', message: 'boom' })).toBe(
      'Server error occurred. Please try again later.',
    );
  });

  it('success: the result message, else the configured message, else the default', () => {
    expect(bannerMessage({ type: 'success' })).toBe('Operation successful.');
    expect(bannerMessage({ type: 'success' }, 'File uploaded.')).toBe('File uploaded.');
    expect(bannerMessage({ type: 'success', message: 'Saved.' }, 'File uploaded.')).toBe('Saved.');
  });
});

describe('resultBannerMachine', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());
  const start = (input: ResultBannerInput = {}) => createActor(resultBannerMachine, { input }).start();

  it('starts hidden, shows a result with its message, and DISMISS closes it', () => {
    const actor = start();
    expect(actor.getSnapshot().value).toBe('hidden');
    expect(actor.getSnapshot().context.message).toBeNull();
    actor.send({ type: 'RESULT', result: { type: 'error', errorType: 'SERVER_ERROR' } });
    expect(actor.getSnapshot().value).toBe('shown');
    expect(actor.getSnapshot().context.message).toBe('Server error occurred. Please try again later.');
    expect(actor.getSnapshot().context.result).toEqual({ type: 'error', errorType: 'SERVER_ERROR' });
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().value).toBe('dismissed');
    actor.send({ type: 'RESULT', result: { type: 'success' } });
    expect(actor.getSnapshot().value).toBe('shown');
    expect(actor.getSnapshot().context.message).toBe('Operation successful.');
  });

  it('uses the configured success message', () => {
    const actor = start({ successMessage: 'Upload complete.' });
    actor.send({ type: 'RESULT', result: { type: 'success' } });
    expect(actor.getSnapshot().context.message).toBe('Upload complete.');
  });

  it('without autoFade a result stays until dismissed', () => {
    const actor = start();
    actor.send({ type: 'RESULT', result: { type: 'success' } });
    vi.advanceTimersByTime(60_000);
    expect(actor.getSnapshot().value).toBe('shown');
  });

  it('with autoFade it fades after the delay, for 500 ms, then hides', () => {
    const actor = start({ autoFadeMs: 3_000 });
    actor.send({ type: 'RESULT', result: { type: 'success' } });
    vi.advanceTimersByTime(2_999);
    expect(actor.getSnapshot().value).toBe('shown');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('fading');
    vi.advanceTimersByTime(BANNER_FADE_MS - 1);
    expect(actor.getSnapshot().value).toBe('fading');
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toBe('hidden');
    expect(BANNER_FADE_MS).toBe(500);
  });

  it('a new result restarts the fade timer, also while fading', () => {
    const actor = start({ autoFadeMs: 1_000 });
    actor.send({ type: 'RESULT', result: { type: 'success' } });
    vi.advanceTimersByTime(900);
    actor.send({ type: 'RESULT', result: { type: 'error', errorType: 'NETWORK_ERROR' } });
    vi.advanceTimersByTime(900);
    expect(actor.getSnapshot().value).toBe('shown');
    expect(actor.getSnapshot().context.message).toBe('Upload failed. Please check your connection and try again.');
    vi.advanceTimersByTime(100);
    expect(actor.getSnapshot().value).toBe('fading');
    actor.send({ type: 'RESULT', result: { type: 'success' } });
    expect(actor.getSnapshot().value).toBe('shown');
    vi.advanceTimersByTime(999);
    expect(actor.getSnapshot().value).toBe('shown');
  });

  it('DISMISS while fading closes it at once', () => {
    const actor = start({ autoFadeMs: 10 });
    actor.send({ type: 'RESULT', result: { type: 'success' } });
    vi.advanceTimersByTime(10);
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().value).toBe('dismissed');
    vi.advanceTimersByTime(BANNER_FADE_MS);
    expect(actor.getSnapshot().value).toBe('dismissed');
  });

  it('reaches every state through the event fixtures (graph)', () => {
    const paths = getShortestPaths(resultBannerMachine, {
      input: resultBannerModelInput,
      events: modelEvents(Object.values(resultBannerEventFixtures)),
    });
    expect(unreachedStateIds(resultBannerMachine, paths.map((p) => p.state))).toEqual([]);
    // Without autoFade, fading is out of reach.
    const sticky = getShortestPaths(resultBannerMachine, {
      input: {},
      events: modelEvents(Object.values(resultBannerEventFixtures)),
    });
    expect(unreachedStateIds(resultBannerMachine, sticky.map((p) => p.state))).toEqual(['resultBanner.fading']);
  });
});
