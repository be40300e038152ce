import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import { isRecord } from '../core/values.js';
import type { RequestOptions } from '../internal/config.js';
import { route } from '../internal/path.js';
import type { HttpMethod } from '../internal/transport.js';
import { PayerNameCreateSchema, PayerNameUpdateSchema } from '../rules/payer-name.js';
import { fieldIssues, parseRequest } from '../rules/schema.js';
import {
  type PayerName,
  type PayerNameCreateParams,
  type PayerNameListParams,
  PayerNameListParamsSchema,
  PayerNameSchema,
  type PayerNameUpdateParams,
} from './payer-name-types.js';
import { APIResource, lazyModule, pagedQuery } from './resource.js';

export * from './payer-name-types.js';

const PATH = '/payer-names';
const ONE = `${PATH}/{payerNameId}`;

/** The streamed multipart body of a create with documents, loaded on first use: see payer-name-upload.ts. */
const upload = lazyModule(() => import('./payer-name-upload.js'));

/** /payer-names: the names payout recipients see, submitted for review and attached to payouts by id. */
export class PayerNames extends APIResource {
  /**
   * Submits a payer name for review (201, status `pending_review`; in sandbox it is `active` at once). With
   * `documents` the request is a streamed `multipart/form-data`, sent once and never retried; `metadata`
   * cannot ride along then (set it afterwards with `update`). Everything is checked before anything is sent.
   */
  create(body: PayerNameCreateParams, options?: RequestOptions): APIPromise<PayerName> {
    return this.api.call(async () => {
      const { documents, ...fields } = isRecord(body) ? body : ({} as PayerNameCreateParams);
      const input = isRecord(body) ? fields : body;
      const call = { method: 'POST', path: PATH, schema: PayerNameSchema, options } as const;
      if (documents === undefined || (Array.isArray(documents) && documents.length === 0)) {
        return { ...call, body: parseRequest(PayerNameCreateSchema, input) };
      }
      const issues = fieldIssues(PayerNameCreateSchema, input);
      if (fields.metadata !== undefined) {
        issues.push({
          path: ['metadata'],
          message:
            'cannot be sent with documents (multipart); create first, then set it with payerNames.update',
        });
      }
      const { multipartBody } = await upload();
      return { ...call, stream: await multipartBody(input, documents, issues) };
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
