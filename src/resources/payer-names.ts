import * as z from 'zod/mini';
import type { APIPromise } from '../core/api-promise.js';
import { RequestValidationError } from '../core/error.js';
import type { PagePromise } from '../core/pagination.js';
import { isRecord } from '../core/values.js';
import type { RequestOptions } from '../internal/config.js';
import { route } from '../internal/path.js';
import type { HttpMethod } from '../internal/transport.js';
import { DOCUMENT_POLICY, PayerNameCreateSchema, PayerNameUpdateSchema } from '../rules/payer-name.js';
import { fieldIssues, parseRequest } from '../rules/schema.js';
import {
  type PayerName,
  type PayerNameCreateParams,
  type PayerNameDocumentInput,
  type PayerNameListParams,
  PayerNameListParamsSchema,
  PayerNameSchema,
  type PayerNameUpdateParams,
} from './payer-name-types.js';
import { APIResource, pagedQuery } from './resource.js';
import { encodeMultipart, preparePart, type UploadInput, type UploadPart } from './uploads.js';

export * from './payer-name-types.js';

const PATH = '/payer-names';
const ONE = `${PATH}/{payerNameId}`;

type DescribedDocument = UploadInput & { description?: unknown };

/** A document as given: `{ file, ... }`, or the file alone (a Blob, bytes or a stream has no `file` key). */
function described(item: PayerNameDocumentInput): DescribedDocument {
  return isRecord(item) && 'file' in item && !(Symbol.asyncIterator in item)
    ? (item as DescribedDocument)
    : { file: item as UploadInput['file'] };
}

/** Each document checked and made a lazy part, with its label; or the issues that refuse it. */
function prepareDocuments(documents: PayerNameDocumentInput[]) {
  return Promise.all(
    documents.map(async (item, i) => {
      const path = ['documents', String(i)];
      const input = described(item);
      const description = input.description;
      if (description !== undefined && typeof description !== 'string') {
        return { issues: [{ path: [...path, 'description'], message: 'must be a string' }] };
      }
      return { ...(await preparePart(input, path, DOCUMENT_POLICY)), description };
    }),
  );
}

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
      const prepared = Array.isArray(documents)
        ? await prepareDocuments(documents)
        : [{ issues: [{ path: ['documents'], message: 'must be an array of files' }] }];
      for (const document of prepared) issues.push(...(document.issues ?? []));
      if (issues.length) throw new RequestValidationError(issues);

      const form: [string, string | UploadPart][] = [];
      for (const [name, value] of Object.entries(parseRequest(PayerNameCreateSchema, input))) {
        if (typeof value === 'string') form.push([name, value]);
      }
      // Text fields go first, so a server parsing the stream can refuse them before the files arrive.
      // `documentDescriptions` labels files by position, so once any file has a label every file gets an entry:
      // an empty string for an unlabelled one keeps the labels after it on their own files. (The spec shows
      // unlabelled files with a null description; how it stores an empty label is not shown.)
      const files = prepared as { part: UploadPart; description?: string }[];
      if (files.some((file) => file.description !== undefined)) {
        for (const file of files) form.push(['documentDescriptions', file.description ?? '']);
      }
      for (const file of files) form.push(['documents', file.part]);
      return { ...call, stream: await encodeMultipart(form) };
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
