// Request and response types of an operation, taken from the generated contract types, so
// route handlers never write a request or response shape by hand.
import type { operations, components } from '../../generated/api-types';

export type OperationId = keyof operations;
export type Schemas = components['schemas'];

type ParametersOf<O extends OperationId> = operations[O]['parameters'];

export type QueryOf<O extends OperationId> =
  ParametersOf<O> extends { query?: infer Q } ? NonNullable<Q> : Record<string, never>;
export type ParamsOf<O extends OperationId> =
  ParametersOf<O> extends { path?: infer P } ? NonNullable<P> : Record<string, never>;
export type BodyOf<O extends OperationId> = operations[O] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
type ResponsesOf<O extends OperationId> = operations[O]['responses'];
export type ReplyOf<
  O extends OperationId,
  S extends keyof ResponsesOf<O> = 200 & keyof ResponsesOf<O>,
> = ResponsesOf<O>[S] extends { content: { 'application/json': infer R } } ? R : never;

/** Fastify route generic for an operation: `app.get<Route<'listStudents'>>(...)`. */
export interface Route<O extends OperationId> {
  Querystring: QueryOf<O>;
  Params: ParamsOf<O>;
  Body: BodyOf<O>;
}
