import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { invalid } from '../core/error.js';
import type { PagePromise } from '../core/pagination.js';
import { isRecord } from '../core/values.js';
import { route } from '../internal/path.js';
import type { RequestOptions } from '../internal/request-options.js';
import type { HttpMethod } from '../internal/transport.js';
import { PayerNameCreateSchema, PayerNameUpdateSchema } from '../rules/payer-name.js';
import { parseRequest } from '../rules/schema.js';
import {
  type PayerName,
  type PayerNameCreateParams,
  type PayerNameFields,
  type PayerNameListParams,
  PayerNameListParamsSchema,
  PayerNameSchema,
  type PayerNameUpdateParams,
} from './payer-name-types.js';
import { APIResource, pagedQuery } from './resource.js';

export * from './payer-name-types.js';

const PATH = '/payer-names';
const ONE = `${PATH}/{payerNameId}`;

const UPLOAD_ELSEWHERE =
  "are sent as multipart by createPayerNameWithDocuments(client, body) from 'payments-service-sdk/uploads': " +
  'payerNames.create sends JSON only, so a plain app never bundles the multipart encoder';

/** /payer-names: the names payout recipients see, submitted for review and attached to payouts by id. */
export class PayerNames extends APIResource {
  /**
   * Submits a payer name for review (201, status `pending_review`; in sandbox it is `active` at once) as JSON.
   * Documents go as a streamed `multipart/form-data`, which `createPayerNameWithDocuments` (the
   * `payments-service-sdk/uploads` entry) sends: here a non-empty `documents` is refused before anything is sent.
   */
  create(body: PayerNameFields, options?: RequestOptions): APIPromise<PayerName> {
    return this.api.call(() => {
      const { documents, ...fields } = (isRecord(body) ? body : {}) as PayerNameCreateParams;
      if (documents !== undefined && !(Array.isArray(documents) && documents.length === 0)) {
        throw invalid(['documents'], UPLOAD_ELSEWHERE);
      }
      const input = isRecord(body) ? fields : body;
      return {
        method: 'POST',
        path: PATH,
        schema: PayerNameSchema,
        options,
        body: parseRequest(PayerNameCreateSchema, input),
      };
    }, 'payerNames.create');
  }

  /**
   * Lists payer names page by page. `status` takes review statuses: `approved` matches names in `processing`,
   * `active` and `action_required`. `query` passes parameters the spec does not show.
   */
  list(params: PayerNameListParams = {}, options?: RequestOptions): PagePromise<PayerName> {
    return this.api.list(
      {
        path: PATH,
        shape: 'nested',
        query: () => pagedQuery(PayerNameListParamsSchema, params),
        schema: PayerNameSchema,
        options,
      },
      'payerNames.list',
    );
  }

  /**
   * Changes fields of a payer name, and is the way to set `metadata`. The spec names "Update Payer Name" but
   * does not show it: `PATCH /payer-names/{id}` with a snake_case JSON body is inferred from the API's other
   * resources. Its effect on status is not shown either.
   */
  update(payerNameId: string, body: PayerNameUpdateParams, options?: RequestOptions): APIPromise<PayerName> {
    return this.#one('PATCH', ONE, payerNameId, options, 'payerNames.update', () =>
      parseRequest(PayerNameUpdateSchema, body),
    );
  }

  /** A request on one payer name, answered with it; `body` is built (and checked) after the id. */
  #one(
    method: HttpMethod,
    template: string,
    payerNameId: string,
    options: RequestOptions | undefined,
    operation: string,
    body?: () => unknown,
  ): APIPromise<PayerName> {
    return this.api.call(() => {
      const target = route(template, { payerNameId });
      return { method, ...target, body: body?.(), schema: PayerNameSchema, options };
    }, operation);
  }

  /**
   * Makes a name the account's default (moving the flag off the previous one), or clears it with `false`.
   * Only a name that cleared review may be default: others get a 400.
   */
  setDefault(payerNameId: string, isDefault = true, options?: RequestOptions): APIPromise<PayerName> {
    return this.#one('PATCH', `${ONE}/default`, payerNameId, options, 'payerNames.setDefault', () => ({
      isDefault: parseRequest(z.boolean('must be a boolean'), isDefault, ['isDefault']),
    }));
  }

  /**
   * Archives a name for good: it stops being the default, its display name becomes reusable, and withdrawals
   * naming it get a 400. Archiving an archived name is a 200 no-op, so the call is safe to retry.
   */
  archive(payerNameId: string, options?: RequestOptions): APIPromise<PayerName> {
    return this.#one('DELETE', ONE, payerNameId, options, 'payerNames.archive');
  }
}
