// Model-based tests render the real screens (src/testing/test-utils.tsx) on MSW; the first
// visit of a lazily loaded screen compiles it, so give async queries room.
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });
