// The health, database and qr tags: the checks and set-up calls the world answers the same way
// every time, and the one that empties it.
import type { HttpHandler } from 'msw';
import { getDeleteDatabaseMockHandler, getInitDatabaseMockHandler } from '../../../../../generated/hooks/database/database.msw';
import { getGetHealthMockHandler } from '../../../../../generated/hooks/health/health.msw';
import { getResolveQrCodeMockHandler } from '../../../../../generated/hooks/qr/qr.msw';
import { answer } from '../http';
import { seedWorld, type World } from '../world';

export function housekeepingResponders(replaceWorld: (world: World) => void): HttpHandler[] {
  return [
    answer(getGetHealthMockHandler, () => ({ status: 'ok' as const, database: 'ok' as const })),
    answer(getInitDatabaseMockHandler, () => ({ status: 'ok' as const, migrations_applied: 0 })),
    answer(getDeleteDatabaseMockHandler, () => {
      replaceWorld(seedWorld('empty'));
      return { status: 'ok' as const };
    }),
    // A redirect with no body, the same every time.
    getResolveQrCodeMockHandler(),
  ];
}
