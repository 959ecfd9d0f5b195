// orval configuration: TanStack Query hooks and MSW mock handlers generated from the bundled
// contract (generated/openapi.json, made by scripts/codegen.ts from openapi/). The hooks call
// the hand-written fetcher in src/lib/api-client.ts, which behaves as spec section 7 says.
import { defineConfig } from 'orval';
import { faker } from '@faker-js/faker';

// Realistic values for the MSW mocks, by property name (orval embeds these functions' source).
const realisticMockProperties = {
  name: () => faker.person.fullName(),
  email: () => faker.internet.email().toLowerCase(),
  phone: () => faker.phone.number(),
  address: () => faker.location.streetAddress(),
  location: () => faker.location.city(),
  iso_code: () => faker.location.countryCode(),
  display_name: () => faker.location.city(),
  wbs_code: () => `${faker.location.countryCode()} ${faker.number.int({ min: 1000, max: 9999 })}`,
  contact_info: () => faker.phone.number(),
  employment: () => faker.person.jobTitle(),
  birthdate: () => faker.date.birthdate().toISOString().slice(0, 10),
  age: () => faker.number.int({ min: 16, max: 90 }),
  human_id: () => faker.number.int({ min: 100000, max: 999999 }),
  total: () => faker.number.int({ min: 0, max: 120 }),
  skip: () => 0,
  limit: () => 10,
  student_count: () => faker.number.int({ min: 0, max: 30 }),
  responses_count: () => faker.number.int({ min: 0, max: 80 }),
  page_number: () => faker.number.int({ min: 1, max: 4 }),
  ready_to_print_count: () => faker.number.int({ min: 0, max: 5 }),
  all_files_count: () => faker.number.int({ min: 0, max: 40 }),
  completed: () => faker.number.int({ min: 0, max: 100 }),
  count: () => 100,
  failed: () => 0,
};

export default defineConfig({
  portal: {
    input: { target: './generated/openapi.json' },
    output: {
      mode: 'tags-split',
      target: './generated/hooks',
      schemas: './generated/hooks/model',
      client: 'react-query',
      httpClient: 'fetch',
      // No delay: the mock world answers at once, as its hand-written handlers did (and fake clocks
      // in the web tests need no extra tick).
      mock: { type: 'msw', useExamples: false, delay: false, generateEachHttpStatus: false },
      clean: true,
      prettier: false,
      override: {
        mutator: { path: './src/lib/api-client.ts', name: 'apiFetch' },
        fetch: { includeHttpResponseReturnType: false },
        query: { useQuery: true, useMutation: true, signal: true },
        mock: {
          // orval matches a property by name only through a /regex/ key.
          properties: Object.fromEntries(
            Object.entries(realisticMockProperties).map(([name, make]) => [`/^${name}$/`, make]),
          ),
        },
      },
    },
  },
});
