// Binds every route to its contract operation (by method and path, through an onRoute hook):
// who may call it (x-access), request validation (params, query, JSON body) with the spec's
// 400 VALIDATION_ERROR shape, and, in tests, validation of every JSON response against the
// contract. Route modules stay plain Fastify routes; the contract is the one source of shapes.
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction, ErrorObject } from 'ajv';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import { contract, type Operation } from './contract';
import { canAccess, type AccessSubject } from './access';

export interface ContractPluginOptions {
  /** Who is calling (null when anonymous). */
  getSubject: (request: FastifyRequest) => AccessSubject | null;
  /** Validate every JSON response against the contract (tests and contract checks). */
  validateResponses?: boolean;
}

export interface ContractViolation {
  operationId: string;
  status: number;
  message: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    contractViolations: ContractViolation[];
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

function makeAjv() {
  const ajv = new Ajv2020({
    strict: false,
    coerceTypes: true,
    useDefaults: true,
    allErrors: false,
  });
  addFormats(ajv);
  return ajv;
}

function describe(where: string, errors: ErrorObject[] | null | undefined): string {
  const error = errors?.[0];
  if (!error) return `${where} is invalid`;
  const at = error.instancePath ? `${where}${error.instancePath.replace(/\//g, '.')}` : where;
  const extra =
    error.keyword === 'enum'
      ? `: ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`
      : error.keyword === 'additionalProperties'
        ? ` (${(error.params as { additionalProperty: string }).additionalProperty})`
        : '';
  return `${at} ${error.message ?? 'is invalid'}${extra}`;
}

function validationError(reply: FastifyReply, message: string) {
  return reply.code(400).send({ detail: { error_type: 'VALIDATION_ERROR', message } });
}

interface CompiledOperation {
  params: ValidateFunction;
  query: ValidateFunction;
  body?: ValidateFunction;
  responses: Map<string, ValidateFunction>;
}

function compile(ajv: Ajv2020, op: Operation): CompiledOperation {
  const objectOf = (location: 'path' | 'query') => {
    const params = op.parameters.filter((p) => p.in === location);
    return {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name, p.schema])),
      required: params.filter((p) => p.required || location === 'path').map((p) => p.name),
    };
  };
  const responses = new Map<string, ValidateFunction>();
  for (const [status, byType] of Object.entries(op.responses)) {
    const schema = byType['application/json'];
    if (schema) responses.set(status, ajv.compile(schema));
  }
  return {
    params: ajv.compile(objectOf('path')),
    query: ajv.compile(objectOf('query')),
    body: op.jsonBody ? ajv.compile(op.jsonBody) : undefined,
    responses,
  };
}

export async function contractPlugin(app: FastifyInstance, options: ContractPluginOptions) {
  const requestAjv = makeAjv();
  // Responses are checked as sent: no coercion, no defaults.
  const responseAjv = new Ajv2020({ strict: false, coerceTypes: false, allErrors: false });
  addFormats(responseAjv);
  app.decorate('contractViolations', [] as ContractViolation[]);
  const byOperation = contract().operations;

  app.addHook('onRoute', (route) => {
    // HEAD is the GET operation without its body (Fastify adds it for every GET route): the same
    // access rule, validation and scoping, so HEAD never answers what GET refuses.
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).map((method) => (method === 'HEAD' ? 'GET' : method));
    const op = byOperation.find((o) => methods.includes(o.method) && o.routePath === route.url);
    if (!op) return;
    const compiled = compile(requestAjv, op);
    const responseValidators = options.validateResponses
      ? compile(responseAjv, op).responses
      : undefined;
    route.config = { ...(route.config ?? {}), operation: op };

    const checkAccess: onRequestHookHandler = async (request, reply) => {
      const verdict = canAccess(op.access, options.getSubject(request));
      if (verdict === 401) return reply.code(401).send({ detail: 'Not authenticated' });
      if (verdict === 403) return reply.code(403).send({ detail: 'Forbidden' });
    };
    const validate: preHandlerHookHandler = async (request, reply) => {
      if (!compiled.params(request.params ?? {}))
        return validationError(reply, describe('path', compiled.params.errors));
      if (!compiled.query(request.query ?? {}))
        return validationError(reply, describe('query', compiled.query.errors));
      if (compiled.body) {
        if (request.body === undefined || request.body === null) {
          if (op.bodyRequired) return validationError(reply, 'body is required');
        } else if (!compiled.body(request.body)) {
          return validationError(reply, describe('body', compiled.body.errors));
        }
      }
    };
    const asArray = <T>(hook: T | T[] | undefined): T[] =>
      hook === undefined ? [] : Array.isArray(hook) ? hook : [hook];
    // Access runs at onRequest, before the body is read: an anonymous upload is refused unread.
    route.onRequest = [checkAccess, ...asArray(route.onRequest)];
    route.preHandler = [validate, ...asArray(route.preHandler)];

    if (responseValidators) {
      const check = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
        const status = String(reply.statusCode);
        const documented = op.responses[status];
        const violation = (message: string) => {
          app.contractViolations.push({
            operationId: op.operationId,
            status: reply.statusCode,
            message,
          });
          request.log.error({ operationId: op.operationId, status, message }, 'contract violation');
        };
        if (!documented) {
          violation(`status ${status} is not in the contract`);
          return payload;
        }
        const validator = responseValidators.get(status);
        const type = String(reply.getHeader('content-type') ?? '');
        if (validator && type.includes('json') && typeof payload === 'string') {
          if (!validator(JSON.parse(payload))) violation(describe('response', validator.errors));
        }
        return payload;
      };
      route.onSend = [...asArray(route.onSend), check];
    }
  });
}
// Registered without encapsulation so the onRoute hook sees every route of the app.
(contractPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;

export function missingRoutes(app: FastifyInstance): Operation[] {
  return contract().operations.filter(
    (op) => !app.hasRoute({ method: op.method as 'GET', url: op.routePath }),
  );
}
