// Result banner: shows the outcome of an operation (an upload, a save...) above the content.
//
// State hierarchy (flat, id "resultBanner"):
//   hidden     nothing shown (initial). RESULT → shown
//   shown      the message of the last result. DISMISS → dismissed; RESULT → shown again with the
//              new result (the fade timer restarts); when input autoFadeMs is set,
//              after autoFadeMs → fading
//   fading     the fade-out, BANNER_FADE_MS long. After it → hidden; RESULT → shown; DISMISS → dismissed
//   dismissed  closed by the user. RESULT → shown
// Only `after` delays are used: no actor or action has to be supplied.
import { assign, setup } from 'xstate';
import { BANNER_FADE_MS } from '../constants';

/** The outcome an operation reports (spec §3 "Upload result": status and errorType). */
export interface BannerResult {
  type: 'success' | 'error';
  /** For an error: DUPLICATE_FILE, VALIDATION_ERROR, SERVER_ERROR, NETWORK_ERROR, or any other code. */
  errorType?: string | undefined;
  /** For a success: the text to show instead of the banner's success message. Ignored for errors. */
  message?: string | undefined;
}

export const DEFAULT_SUCCESS_MESSAGE = 'Operation successful.';
export const GENERIC_ERROR_MESSAGE = 'Operation failed. Please try again.';

/** The banner texts of spec §8, by error type. */
export const BANNER_ERROR_MESSAGES: Readonly<Record<string, string>> = {
  DUPLICATE_FILE: 'This file has already been uploaded. Please upload a different file.',
  VALIDATION_ERROR: "Invalid file format or corrupted file. Please ensure you're uploading a valid PDF file.",
  SERVER_ERROR: 'Server error occurred. Please try again later.',
  NETWORK_ERROR: 'Upload failed. Please check your connection and try again.',
};

/** The text the banner shows for a result. */
export function bannerMessage(result: BannerResult, successMessage: string = DEFAULT_SUCCESS_MESSAGE): string {
  if (result.type === 'success') return result.message ?? successMessage;
  const known = result.errorType !== undefined && Object.hasOwn(BANNER_ERROR_MESSAGES, result.errorType);
  return known ? (BANNER_ERROR_MESSAGES[result.errorType as string] as string) : GENERIC_ERROR_MESSAGE;
}

export interface ResultBannerInput {
  /** Milliseconds a result stays before fading out; null or absent: it stays until dismissed. */
  autoFadeMs?: number | null | undefined;
  /** The success text; default "Operation successful.". */
  successMessage?: string | undefined;
}

export interface ResultBannerContext {
  result: BannerResult | null;
  /** bannerMessage(result) of the current result; null before the first one. */
  message: string | null;
  autoFadeMs: number | null;
  successMessage: string;
}

export type ResultBannerEvent = { type: 'RESULT'; result: BannerResult } | { type: 'DISMISS' };

export const resultBannerMachine = setup({
  types: {
    input: {} as ResultBannerInput,
    context: {} as ResultBannerContext,
    events: {} as ResultBannerEvent,
  },
  actions: {
    showResult: assign(({ context, event }) =>
      event.type === 'RESULT'
        ? { result: event.result, message: bannerMessage(event.result, context.successMessage) }
        : {},
    ),
  },
  guards: {
    autoFades: ({ context }) => context.autoFadeMs !== null,
  },
  delays: {
    autoFade: ({ context }) => context.autoFadeMs ?? 0,
    bannerFade: BANNER_FADE_MS,
  },
}).createMachine({
  id: 'resultBanner',
  context: ({ input }) => ({
    result: null,
    message: null,
    autoFadeMs: input.autoFadeMs ?? null,
    successMessage: input.successMessage ?? DEFAULT_SUCCESS_MESSAGE,
  }),
  initial: 'hidden',
  on: {
    // From the root, .shown is exited and entered again even when active: the fade timer restarts.
    RESULT: { target: '.shown', actions: 'showResult' },
  },
  states: {
    hidden: {},
    shown: {
      on: { DISMISS: 'dismissed' },
      after: { autoFade: { guard: 'autoFades', target: 'fading' } },
    },
    fading: {
      on: { DISMISS: 'dismissed' },
      after: { bannerFade: 'hidden' },
    },
    dismissed: {},
  },
});
