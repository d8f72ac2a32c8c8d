// The OpenAPI 3.1 document of the gateway, generated from the route declarations (routes/route.ts) and the contract's
// zod schemas in them (zod's JSON Schema output, draft 2020-12, which OpenAPI 3.1 takes as it is). Path parameters
// come from the `{name}` parts of a path; JSON bodies add 400, 413 and 415, Bearer routes 401, and every route a
// problem+json `default`. Request schemas are written as the gateway reads them (defaults optional), answers as it
// writes them.
import * as z from 'zod/mini';
import {
  type Environment,
  Address,
  CheckoutView,
  CreateRefundRequest,
  EventTransfer,
  OpenPaymentRequest,
  Payment,
  PaymentLinkRequest,
  PaymentLinkResource,
  Problem,
  RefundList,
  RefundRecord,
  TokenError,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookEvent,
  WebhookTestEvent,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_EVENT_TYPES,
} from '../../contract/index.js';
import { isMedia, type Body, type Declaration, type Method, type RouteSpec, type Tag } from '../routes/route.js';

type Json = Record<string, unknown>;

/** Schemas that get a name under components/schemas; every other schema is written inline. */
const NAMED_INPUTS = { PaymentLinkRequest, CreateRefundRequest, OpenPaymentRequest, Address };
const NAMED_OUTPUTS = { CheckoutView, Payment, PaymentLinkResource, RefundList, RefundRecord, Problem, TokenError, WebhookEndpoint, WebhookDelivery, WebhookDeliveryDetail, WebhookEvent, EventTransfer, WebhookTestEvent };

const TAGS: Record<Tag, string> = {
  Merchant: "The merchant API: tokens, payment links, refunds, and the merchant's reads. Server to server: no CORS.",
  Webhooks: 'Webhook endpoints and their delivery logs.',
  Checkout: 'What the <pay-checkout> element calls. Public and CORS open: the payment_link_ref is the bearer secret.',
  Sandbox: 'Sandbox only: the test wallet, the simulated chain, and shortcuts through time.',
  Assets: 'What browsers load: the element, the hosted checkout page, this document.',
  Operations: 'For those who run the gateway: liveness, readiness, metrics.',
};

const STATUS_TEXT: Record<number, string> = {
  400: 'The body is not JSON, or not a JSON object; a malformed parameter.',
  401: 'A missing, unknown or expired credential, or a wrong signature.',
  404: 'Nothing of that name (for this merchant).',
  409: 'The state forbids it (see the detail).',
  410: 'The payment link has expired.',
  413: 'The body is larger than 256 KiB.',
  415: 'A Content-Type other than JSON.',
  422: 'A field breaks a rule: `errors` names each one.',
  429: 'Past one of the limits in docs/security.md ("Limits"); `Retry-After` says when to try again.',
  503: 'Not available yet (see the detail).',
};

const OK_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No content', 304: 'Not modified: the copy named by If-None-Match is current' };

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

/** JSON Schema of one contract schema; named schemas become references. */
function jsonSchema(schema: z.ZodMiniType, io: 'input' | 'output'): Json {
  const named = new Map<unknown, string>(Object.entries(io === 'input' ? NAMED_INPUTS : NAMED_OUTPUTS).map(([name, s]) => [s, name]));
  const own = named.get(schema);
  if (own) return ref(own);
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema: json }) => {
      const name = (zodSchema as unknown) !== schema && named.get(zodSchema);
      if (!name) return;
      for (const key of Object.keys(json)) delete (json as Json)[key];
      Object.assign(json, ref(name));
    },
  });
  return rest;
}

/** components/schemas: each named schema written once, referring to the others by name. */
function components(): Json {
  const schemas: Json = {};
  for (const [io, named] of [['input', NAMED_INPUTS], ['output', NAMED_OUTPUTS]] as const) {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(named)) registry.add(schema, { id });
    const written = z.toJSONSchema(registry, { io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` }).schemas;
    for (const [id, { $schema: _dialect, $id: _id, ...schema }] of Object.entries(written)) schemas[id] = schema;
  }
  return schemas;
}

function content(body: Body, io: 'input' | 'output'): Json {
  if (isMedia(body)) return { [body.type]: { schema: { type: 'string' } } };
  return { 'application/json': { schema: jsonSchema(body, io) } };
}

function operation(method: Method, path: string, spec: RouteSpec): Json {
  const parameters: Json[] = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: spec.params?.[name!] ? jsonSchema(spec.params[name!]!, 'input') : { type: 'string' },
  }));
  if (spec.query) {
    const query = jsonSchema(spec.query, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
  }
  if (spec.idempotent) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'The same key with the same request answers the first answer again (`Idempotent-Replayed: true`) and does nothing twice; with another request, 422.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  if (spec.lastEventId) {
    parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, description: 'Resume after this event.', schema: { type: 'string', pattern: '^\\d{1,15}$' } });
    parameters.push({ name: 'lastEventId', in: 'query', required: false, description: 'The same, for clients that cannot set the header.', schema: { type: 'string', pattern: '^\\d{1,15}$' } });
  }
  const responses: Json = {};
  for (const [status, body] of Object.entries(spec.ok)) {
    responses[status] = {
      description: body && isMedia(body) ? body.description : (OK_TEXT[Number(status)] ?? 'OK'),
      ...(body && { content: content(body, 'output') }),
      ...(spec.idempotent && { headers: { 'Idempotent-Replayed': { description: '`true` when the answer is a replay of an earlier request with the same key.', schema: { type: 'string', enum: ['true'] } } } }),
    };
  }
  const errors = new Set(spec.errors);
  if (spec.body && !('form' in spec.body)) [400, 413, 415].forEach((s) => errors.add(s));
  if (spec.auth === 'bearer') errors.add(401);
  for (const status of [...errors].sort()) responses[status] = problem(STATUS_TEXT[status] ?? 'An error.');
  if (spec.auth === 'client') {
    const oauth = { content: { 'application/json': { schema: ref('TokenError') } } };
    responses[400] = { description: '`invalid_request` or `unsupported_grant_type` (RFC 6749 5.2).', ...oauth };
    responses[401] = { description: '`invalid_client` (RFC 6749 5.2).', ...oauth };
  }
  responses.default = problem('Any other error (problem details, RFC 9457).');
  const requestBody = spec.body && {
    required: true,
    content: 'form' in spec.body ? { 'application/x-www-form-urlencoded': { schema: jsonSchema(spec.body.form, 'input') } } : { 'application/json': { schema: jsonSchema(spec.body, 'input') } },
  };
  const security = spec.auth === 'bearer' ? [{ bearer: [] }] : spec.auth === 'client' ? [{}, { basic: [] }] : undefined;
  return {
    tags: [spec.tag],
    summary: spec.summary,
    operationId: `${method}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(spec.auth === 'signature' && { description: 'Authenticated by `svc_key` and `signature_hash` in the body: base64 HMAC-SHA256, keyed by the client secret, over the RFC 8785 canonical JSON of the body without `signature_hash`.' }),
    ...(parameters.length && { parameters }),
    ...(requestBody && { requestBody }),
    responses,
    ...(security && { security }),
  };
}

/**
 * The document of a gateway in `environment` serving `routes` (routes/index.ts, routesOf): a live one's has no
 * sandbox route, and no Sandbox tag.
 */
export function openApiDocument(routes: readonly Declaration[], serverUrl = 'http://localhost:4010', environment: Environment = 'sandbox'): Json {
  const paths: Record<string, Json> = {};
  for (const { method, path, spec } of routes) (paths[path] ??= {})[method] = operation(method, path, spec);
  const live = environment === 'live';
  return {
    openapi: '3.1.1',
    info: {
      title: 'pay-checkout gateway',
      version: '1',
      summary: live ? 'The merchant API and the checkout API of <pay-checkout>.' : 'The merchant API, the checkout API of <pay-checkout>, and the sandbox.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    tags: Object.entries(TAGS)
      .filter(([name]) => !live || name !== 'Sandbox')
      .map(([name, description]) => ({ name, description })),
    paths,
    webhooks: {
      event: {
        post: {
          summary: 'A change on one of your payment links, POSTed to each of your webhook endpoints',
          description: `Types: ${WEBHOOK_EVENT_TYPES.join(', ')}. Delivered at least once (de-duplicate on \`id\`), in order per payment link.`,
          parameters: [{ name: 'Pay-Checkout-Signature', in: 'header', required: true, description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the endpoint secret>`', schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEvent') } } },
          responses: { '2XX': { description: 'Received; any other answer (or none within the timeout) is retried.' } },
        },
      },
      test: {
        post: {
          summary: `${WEBHOOK_TEST_EVENT}: what POST /api/webhooks/endpoints/{endpoint_id}/test sends that endpoint, about no payment link`,
          description: 'Signed, sent and retried as every event; answer it 2XX, as any event you do not act on.',
          parameters: [{ name: 'Pay-Checkout-Signature', in: 'header', required: true, description: 'As for every event.', schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookTestEvent') } } },
          responses: { '2XX': { description: 'Received.' } },
        },
      },
    },
    components: {
      schemas: components(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'An access_token from POST /api/v2/oauth/token.' },
        basic: { type: 'http', scheme: 'basic', description: 'client_id and client_secret, each form-encoded (RFC 6749 2.3.1).' },
      },
    },
  };
}
