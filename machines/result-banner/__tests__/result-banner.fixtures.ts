// The events, actor results and inputs the model tests walk the result-banner machine's graph with
// (machines/result-banner/__tests__ and tests/model): test material, kept out of the bundle.
import type { ResultBannerEvent, ResultBannerInput } from '../result-banner.machine';
import type { EventFixtures } from '../../__tests__/model-events';

/** One example of every event, for model-based tests. */
export const resultBannerEventFixtures = {
  RESULT: { type: 'RESULT', result: { type: 'error', errorType: 'DUPLICATE_FILE' } },
  DISMISS: { type: 'DISMISS' },
} satisfies EventFixtures<ResultBannerEvent>;

/** An input under which every state is reachable. */
export const resultBannerModelInput: ResultBannerInput = { autoFadeMs: 3_000 };
