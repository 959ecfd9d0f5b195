// The generated MSW mocks must answer with data the contract allows: every operation's mock
// response, drawn many times (faker is random), validates against its response schema.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { contract } from '../../server/contract/contract';

const modules = import.meta.glob('../../generated/hooks/*/*.msw.ts', { eager: true }) as Record<
  string,
  Record<string, unknown>
>;
const mockFactories = new Map<string, () => unknown>();
for (const exports of Object.values(modules)) {
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value === 'function' && /^get[A-Z]\w*ResponseMock$/.test(name)) {
      mockFactories.set(name, value as () => unknown);
    }
  }
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

const jsonOperations = contract()
  .operations.map((op) => {
    const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
    const schema = success?.[1]['application/json'];
    return { op, schema };
  })
  .filter((entry) => entry.schema !== undefined);

const factoryName = (operationId: string) =>
  `get${operationId[0]!.toUpperCase()}${operationId.slice(1)}ResponseMock`;

describe('generated MSW mock data matches the contract', () => {
  it('has a handler module per tag', () => {
    expect(Object.keys(modules).length).toBeGreaterThanOrEqual(15);
  });

  it.each(jsonOperations.map((entry) => [entry.op.operationId, entry] as const))(
    '%s',
    (_id, { op, schema }) => {
      const make = mockFactories.get(factoryName(op.operationId));
      expect(make, `no mock factory for ${op.operationId}`).toBeTypeOf('function');
      const validate = ajv.compile(schema!);
      for (let draw = 0; draw < 25; draw++) {
        const data = make!();
        const ok = validate(data);
        expect(
          ok,
          `${op.operationId}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(data).slice(0, 400)}`,
        ).toBe(true);
      }
    },
  );
});
